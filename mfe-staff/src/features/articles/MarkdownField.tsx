import { useRef } from 'react';
import MDEditor, { commands, TextAreaTextApi, type ICommand } from '@uiw/react-md-editor';
import '@uiw/react-md-editor/markdown-editor.css';
import { IMAGE_UPLOAD } from '@agency/shared';
import styles from './articles.module.css';

/**
 * A toolbar button in Ukrainian: its label is what a screen reader and the tooltip say; its
 * picture (the library's SVG, an unnamed image) is hidden from them.
 */
const labelled = (command: ICommand, label: string): ICommand => ({
  ...command,
  icon: <span aria-hidden="true">{command.icon}</span>,
  buttonProps: { 'aria-label': label, title: label },
});

interface MarkdownFieldProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Uploads a picked image; resolves to the Markdown that shows it, or undefined when refused. */
  uploadImage: (file: File) => Promise<string | undefined>;
}

/**
 * The article's text in Markdown, with a toolbar for what articles use: headings, bold, italic,
 * lists, links, quotes and pictures (picked or dropped on the text, uploaded, then inserted where
 * the cursor was). The editor's
 * own preview is off: an article is previewed only as visitors will see it, by the blog.
 */
export default function MarkdownField({ id, label, value, onChange, uploadImage }: MarkdownFieldProps) {
  const picker = useRef<HTMLInputElement>(null);
  const pending = useRef<TextAreaTextApi | undefined>(undefined);

  const imageCommand: ICommand = {
    ...labelled(commands.image, 'Зображення'),
    execute: (_state, api) => {
      pending.current = api;
      picker.current?.click();
    },
  };
  const toolbar = [
    labelled(commands.title2, 'Заголовок розділу'),
    labelled(commands.title3, 'Підзаголовок'),
    commands.divider,
    labelled(commands.bold, 'Жирний'),
    labelled(commands.italic, 'Курсив'),
    commands.divider,
    labelled(commands.unorderedListCommand, 'Маркований список'),
    labelled(commands.orderedListCommand, 'Нумерований список'),
    labelled(commands.link, 'Посилання'),
    labelled(commands.quote, 'Цитата'),
    imageCommand,
  ];

  const insertUploaded = async (file: File | undefined, api: TextAreaTextApi | undefined) => {
    if (!file || !api) return;
    const markdown = await uploadImage(file);
    if (markdown) api.replaceSelection(markdown);
  };

  return (
    <div
      className={styles.markdown}
      data-color-mode="light"
      // A picture dropped on the text is uploaded and inserted where the cursor is.
      onDragOver={(event) => {
        if (event.dataTransfer.types.includes('Files')) event.preventDefault();
      }}
      onDrop={(event) => {
        const file = event.dataTransfer.files[0];
        if (!file) return;
        event.preventDefault();
        const textarea = document.getElementById(id);
        if (textarea instanceof HTMLTextAreaElement) void insertUploaded(file, new TextAreaTextApi(textarea));
      }}
    >
      <label htmlFor={id} className={styles.markdownLabel}>
        {label}
      </label>
      <MDEditor
        value={value}
        onChange={(next) => onChange(next ?? '')}
        preview="edit"
        commands={toolbar}
        extraCommands={[]}
        height={480}
        visibleDragbar={false}
        textareaProps={{ id, spellCheck: true, lang: 'uk' }}
      />
      <input
        ref={picker}
        type="file"
        accept={IMAGE_UPLOAD.mimeTypes.join(',')}
        hidden
        aria-hidden="true"
        tabIndex={-1}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = '';
          void insertUploaded(file, pending.current);
        }}
      />
    </div>
  );
}
