import type { ServiceCreate, ServiceFields, ServiceSave, StaffService } from '@agency/shared';
import { SLUG_PATTERN } from '@agency/shared/contracts';
import { slugFromTitle } from '@agency/shared/slug';
import type { Db } from '../../platform/db/connection';
import { isUniqueViolation } from '../../platform/db/database-errors';
import type { AppKysely } from '../../platform/db/schema';
import { ApiError } from '../../platform/http/api-error';
import { recordAudit, type AuditAction } from '../../platform/audit/audit-log';
import { ChangedError } from '../common/changed-error';
import { STAFF_MESSAGES } from '../common/staff-messages';
import type { Actor } from '../inbox/lead-work';

/**
 * The home page's services, edited in the console. A change of a published service is what the
 * home page shows within about a second (the services table moves the content revision); a new
 * service starts off the page until it is published. Every change names the version it was made
 * from and is refused with the service as it is now (409) when another came first.
 */

export class ServiceChangedError extends ChangedError<StaffService> {
  constructor(current: StaffService) {
    super('SERVICE_CHANGED', STAFF_MESSAGES.serviceChanged, current);
  }
}

const notFound = () => new ApiError(404, 'SERVICE_NOT_FOUND', STAFF_MESSAGES.serviceNotFound);

function columns(fields: ServiceFields, db: Db) {
  return {
    title: fields.title.trim(),
    description: fields.description.trim(),
    icon_url: fields.icon,
    features: db.dialect.json(fields.features.map((feature) => feature.trim())),
    price_from: fields.priceFrom,
  };
}

async function audit(kysely: AppKysely, actor: Actor, action: AuditAction, target: string, detail?: Record<string, unknown>) {
  await recordAudit(kysely, { actorId: actor.member.id, actor: actor.member.email, action, target, address: actor.address, detail });
}

function selectServices(db: Db) {
  return db.kysely
    .selectFrom('services')
    .leftJoin('staff_members', 'staff_members.id', 'services.updated_by')
    .select(['services.id', 'services.slug', 'services.title', 'services.description', 'services.icon_url', 'services.features', 'services.price_from', 'services.unpublished_at', 'services.version', 'services.updated_at', 'staff_members.email'])
    .orderBy('services.sort_order')
    .orderBy('services.id');
}

type Row = Awaited<ReturnType<ReturnType<typeof selectServices>['execute']>>[number];

function staffService(db: Db, row: Row): StaffService {
  return {
    id: Number(row.id),
    slug: row.slug,
    title: row.title,
    description: row.description,
    icon: row.icon_url,
    features: db.dialect.readStringArray(row.features),
    priceFrom: row.price_from === null ? null : Number(row.price_from),
    published: row.unpublished_at === null,
    version: Number(row.version),
    updatedAt: row.updated_at,
    updatedBy: row.email,
  };
}

/** Every service, in the home page's order, published or not. */
export async function listStaffServices(db: Db): Promise<StaffService[]> {
  return (await selectServices(db).execute()).map((row) => staffService(db, row));
}

export async function findStaffService(db: Db, id: number): Promise<StaffService | undefined> {
  const row = await selectServices(db).where('services.id', '=', id).executeTakeFirst();
  return row && staffService(db, row);
}

/** A new service, last in the order and off the home page until it is published. */
export async function createService(db: Db, input: ServiceCreate, actor: Actor): Promise<StaffService> {
  const slug = input.slug ?? slugFromTitle(input.title);
  if (!new RegExp(SLUG_PATTERN).test(slug)) throw new ApiError(400, 'SLUG_REQUIRED', STAFF_MESSAGES.slugFromTitleEmpty, { slug: STAFF_MESSAGES.slugFromTitleEmpty });
  const taken = () => new ApiError(409, 'SLUG_TAKEN', STAFF_MESSAGES.serviceSlugTaken(slug), { slug: STAFF_MESSAGES.serviceSlugTaken(slug) });
  const at = new Date().toISOString();
  let id: number;
  try {
    id = await db.kysely.transaction().execute(async (trx) => {
      if (await trx.selectFrom('services').select('id').where('slug', '=', slug).executeTakeFirst()) throw taken();
      const last = await trx.selectFrom('services').select((eb) => eb.fn.max('sort_order').as('last')).executeTakeFirstOrThrow();
      const row = await trx
        .insertInto('services')
        .values({ slug, ...columns(input, db), sort_order: Number(last.last ?? 0) + 1, unpublished_at: at, version: 1, updated_at: at, updated_by: actor.member.id })
        .returning('id')
        .executeTakeFirstOrThrow();
      await audit(trx, actor, 'service-created', `service:${Number(row.id)}`);
      return Number(row.id);
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  }
  return (await findStaffService(db, id))!;
}

/** Writes `set` to service `id` if it is still at `version`; otherwise a conflict with what it is now. */
async function changeAt(db: Db, id: number, version: number, actor: Actor, action: AuditAction, set: Record<string, unknown>): Promise<StaffService> {
  const current = await findStaffService(db, id);
  if (!current) throw notFound();
  if (current.version !== version) throw new ServiceChangedError(current);
  const changed = await db.kysely.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('services')
      .set({ ...set, version: version + 1, updated_at: new Date().toISOString(), updated_by: actor.member.id })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await audit(trx, actor, action, `service:${id}`, { version });
    return true;
  });
  const after = (await findStaffService(db, id))!;
  if (!changed) throw new ServiceChangedError(after);
  return after;
}

export async function saveService(db: Db, id: number, save: ServiceSave, actor: Actor): Promise<StaffService> {
  const { version, ...fields } = save;
  return changeAt(db, id, version, actor, 'service-changed', columns(fields, db));
}

export async function publishService(db: Db, id: number, version: number, actor: Actor): Promise<StaffService> {
  return changeAt(db, id, version, actor, 'service-published', { unpublished_at: null });
}

export async function unpublishService(db: Db, id: number, version: number, actor: Actor): Promise<StaffService> {
  return changeAt(db, id, version, actor, 'service-unpublished', { unpublished_at: new Date().toISOString() });
}

/**
 * Puts the services in the order of `ids`, which must name every service once: an order made
 * from a list that has changed since (a service added meanwhile) is refused, never half applied.
 */
export async function reorderServices(db: Db, ids: number[], actor: Actor): Promise<StaffService[]> {
  await db.kysely.transaction().execute(async (trx) => {
    const existing = (await trx.selectFrom('services').select('id').execute()).map((row) => Number(row.id));
    const same = existing.length === ids.length && existing.every((id) => ids.includes(id));
    if (!same) throw new ApiError(409, 'SERVICE_LIST_CHANGED', STAFF_MESSAGES.serviceListChanged);
    for (const [index, id] of ids.entries()) {
      await trx.updateTable('services').set({ sort_order: index + 1 }).where('id', '=', id).where('sort_order', '<>', index + 1).execute();
    }
    await audit(trx, actor, 'services-reordered', 'services', { ids });
  });
  return listStaffServices(db);
}
