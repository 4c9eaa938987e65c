import { useEffect, useMemo, useState } from 'react';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { type Service, type StaffPreviewContent, type StaffService } from '@agency/shared';
import { messageOf, staffGet, staffSend } from '../../shared/api/staff-api';
import styles from '../../shared/ui/console.module.css';
import { ErrorAlert } from '../../shared/ui/ErrorAlert';
import { PreviewFrames } from '../../shared/ui/PreviewFrames';
import { useDocumentTitle } from '../../shared/ui/use-document-title';
import { useLeaveWarning } from '../../shared/ui/use-leave-warning';
import { ServiceForm, type ServiceDraft } from './ServiceForm';
import serviceStyles from './services.module.css';

/** A service as visitors get it from GET /api/services. */
const asPublic = (service: StaffService, draft?: ServiceDraft): Service => {
  const shown = draft ?? service;
  return { id: service.id, title: shown.title, description: shown.description, icon_url: shown.icon, features: shown.features, price_from: shown.priceFrom };
};

/** Announcements of a keyboard or pointer move, in Ukrainian, for screen readers. */
function announcements(titleOf: (id: unknown) => string) {
  return {
    onDragStart: ({ active }: { active: { id: unknown } }) => `Узято «${titleOf(active.id)}»`,
    // Over its own place (as at the start) says nothing new.
    onDragOver: ({ active, over }: { active: { id: unknown }; over: { id: unknown } | null }) => (over && over.id !== active.id ? `«${titleOf(active.id)}» над «${titleOf(over.id)}»` : undefined),
    onDragEnd: ({ active, over }: { active: { id: unknown }; over: { id: unknown } | null }) => (over ? `«${titleOf(active.id)}» поставлено на місце «${titleOf(over.id)}»` : `«${titleOf(active.id)}» лишилося на місці`),
    onDragCancel: ({ active }: { active: { id: unknown } }) => `Переміщення «${titleOf(active.id)}» скасовано`,
  };
}

function SortableRow({ service, selected, onSelect }: { service: StaffService; selected: boolean; onSelect: () => void }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id: service.id });
  return (
    <li ref={setNodeRef} className={`${serviceStyles.row} ${isDragging ? serviceStyles.dragging : ''}`} style={{ transform: CSS.Transform.toString(transform), transition }}>
      <button
        type="button"
        className={serviceStyles.handle}
        aria-label={`Перемістити «${service.title}»: пробіл, щоб узяти, стрілки, щоб пересунути, пробіл, щоб поставити`}
        {...attributes}
        {...listeners}
      >
        ⠿
      </button>
      <button type="button" className={`${styles.link} ${selected ? serviceStyles.selected : ''}`} aria-current={selected || undefined} onClick={onSelect}>
        {service.title}
      </button>
      <span className={styles.muted}>{service.published ? 'на сайті' : 'прихована'}</span>
    </li>
  );
}

/**
 * `/staff/services` («Послуги»): the home page's services in their order, reordered by dragging or
 * with the keyboard; each edited, published or hidden; and the section previewed as visitors will
 * see it with the changes on screen.
 */
export function ServicesPage() {
  const [services, setServices] = useState<StaffService[] | undefined>(undefined);
  const [selectedId, setSelectedId] = useState<number | undefined>(undefined);
  const [draft, setDraft] = useState<ServiceDraft | undefined>(undefined);
  const [dirty, setDirty] = useState(false);
  const [error, setError] = useState('');
  useDocumentTitle('Послуги');
  useLeaveWarning(dirty);
  const sensors = useSensors(useSensor(PointerSensor), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));

  useEffect(() => {
    staffGet<StaffService[]>('/services').then(
      (loaded) => {
        setServices(loaded);
        setSelectedId((current) => current ?? loaded[0]?.id);
      },
      (failure: unknown) => setError(messageOf(failure)),
    );
  }, []);

  const selected = services?.find((service) => service.id === selectedId);
  const preview = useMemo<StaffPreviewContent | undefined>(
    () =>
      services && {
        kind: 'services',
        services: services.filter((service) => service.published || service.id === selectedId).map((service) => asPublic(service, service.id === selectedId ? draft : undefined)),
      },
    [services, selectedId, draft],
  );

  const replace = (changed: StaffService) => setServices((current) => current?.map((service) => (service.id === changed.id ? changed : service)));

  const onDragEnd = async ({ active, over }: DragEndEvent) => {
    if (!services || !over || active.id === over.id) return;
    const from = services.findIndex((service) => service.id === active.id);
    const to = services.findIndex((service) => service.id === over.id);
    const moved = arrayMove(services, from, to);
    setServices(moved);
    setError('');
    try {
      setServices(await staffSend<StaffService[]>('put', '/services/order', { ids: moved.map((service) => service.id) }));
    } catch (failure) {
      setServices(services);
      setError(messageOf(failure));
    }
  };

  const create = async () => {
    setError('');
    try {
      const created = await staffSend<StaffService>('post', '/services', {
        title: 'Нова послуга',
        description: 'Опис послуги',
        icon: '/media/services/content.svg',
        features: [],
        priceFrom: null,
      });
      setServices((current) => [...(current ?? []), created]);
      setSelectedId(created.id);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };

  if (!services) return error ? <ErrorAlert error={error} /> : <p role="status">Завантаження…</p>;
  const titleOf = (id: unknown) => services.find((service) => service.id === id)?.title ?? '';
  return (
    <>
      <h1>Послуги</h1>
      <ErrorAlert error={error} />
      <div className={serviceStyles.layout}>
        <section className={styles.panel} aria-labelledby="service-order">
          <h2 id="service-order">Порядок на головній</h2>
          <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={(event) => void onDragEnd(event)} accessibility={{ announcements: announcements(titleOf), screenReaderInstructions: { draggable: 'Щоб узяти послугу, натисніть пробіл. Стрілками вгору й униз пересуньте її, пробілом поставте, Escape скасовує.' } }}>
            <SortableContext items={services.map((service) => service.id)} strategy={verticalListSortingStrategy}>
              <ol className={serviceStyles.list} aria-label="Послуги в порядку показу">
                {services.map((service) => (
                  <SortableRow
                    key={service.id}
                    service={service}
                    selected={service.id === selectedId}
                    onSelect={() => {
                      if (dirty && !window.confirm('Є незбережені зміни. Перейти до іншої послуги без них?')) return;
                      setSelectedId(service.id);
                      setDirty(false);
                      setDraft(undefined);
                    }}
                  />
                ))}
              </ol>
            </SortableContext>
          </DndContext>
          <button type="button" className={styles.secondary} onClick={() => void create()}>
            Додати послугу
          </button>
        </section>
        {selected && (
          <ServiceForm
            key={selected.id}
            service={selected}
            onDraft={(next, changed) => {
              setDraft(next);
              setDirty(changed);
            }}
            onSaved={(saved) => {
              replace(saved);
              setDirty(false);
              setDraft(undefined);
            }}
          />
        )}
      </div>
      <section className={styles.panel} aria-labelledby="services-preview">
        <h2 id="services-preview">Попередній перегляд</h2>
        <p className={styles.muted}>Розділ «Послуги» головної сторінки з вашими змінами, намальований кодом сайту (прихована послуга, яку ви редагуєте, теж показана).</p>
        <PreviewFrames kind="services" content={preview} />
      </section>
    </>
  );
}
