import { useId, useState, type DragEvent } from 'react';
import { IMAGE_UPLOAD } from '@agency/shared';
import styles from './image-drop.module.css';

const MAX_MIB = IMAGE_UPLOAD.maxBytes / (1024 * 1024);

/**
 * An image to upload, dropped on the area or picked with the button. A file over the size limit
 * is refused at once; what it really is, the server judges from its content.
 */
export function ImageDrop({ label, hint, accept = IMAGE_UPLOAD.mimeTypes.join(','), onFile, disabled }: { label: string; hint: string; accept?: string; onFile: (file: File) => void; disabled?: boolean }) {
  const inputId = useId();
  const [over, setOver] = useState(false);
  const [tooLarge, setTooLarge] = useState('');

  const take = (file: File | undefined) => {
    if (!file) return;
    if (file.size > IMAGE_UPLOAD.maxBytes) {
      setTooLarge(`Файл «${file.name}» більший за ${MAX_MIB} МіБ`);
      return;
    }
    setTooLarge('');
    onFile(file);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    if (!disabled) take(event.dataTransfer.files[0]);
  };

  return (
    <div
      className={`${styles.drop} ${over ? styles.over : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="image-drop"
    >
      <label htmlFor={inputId} className={styles.label}>
        {label}
      </label>
      <input
        id={inputId}
        type="file"
        accept={accept}
        disabled={disabled}
        onChange={(event) => {
          take(event.target.files?.[0]);
          event.target.value = '';
        }}
      />
      <span className={styles.hint}>{hint}</span>
      {tooLarge && (
        <span role="alert" className={styles.error}>
          {tooLarge}
        </span>
      )}
    </div>
  );
}
