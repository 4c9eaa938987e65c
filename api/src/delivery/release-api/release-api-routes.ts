import { ReleaseExpectationSchema, ReleaseIdSchema } from '@agency/shared/contracts';
import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { IncomingMessage } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { ReleaseExpectation } from '@agency/shared';
import { ApiError } from '../../platform/http/api-error';
import { NO_CACHE } from '../../platform/http/cache-policy';
import { APP_NAMES, isAppName, type AppName } from '../releases/apps';
import { abort, canary, DEFAULT_MIN_VIEWS, list, promote, promoteCandidate, publish, rollback, stage, type ReleaseContext, type ReleaseResult } from '../releases/commands';
import { findStoredRelease, wasDecided, type AppReleases, type ReleaseInfo } from '../releases/release-repository';
import { answerRefusal } from './refused-answer';
import { contentDigest } from '../artifacts/release-files';
import { releaseStatus, parseSince, DEFAULT_STATUS_WINDOW_MS } from '../status/release-status';
import { ArchiveError, checkReleaseArchiveType, readReleaseArchive } from './release-archive';
import { isDevToken, isLocalSite, verifyReleaseToken, type ReleaseTokenIdentity } from './release-tokens';

/** Where the release API lives: `/api/releases/<app>…`. */
export const RELEASE_API_PATH = '/api/releases';

export interface ReleaseApiOptions {
  /** The release commands' context, without the actor: each call acts as its token. */
  context: Omit<ReleaseContext, 'actor'>;
  uploadMaxBytes: number;
  /** The site's origin: development tokens (`dev-…`) are accepted on a site on this machine only. */
  siteUrl: string;
  /** What makes preview links for staged releases (the signing secret is read first). */
  previewLinks(): Promise<(pin: { app: AppName; release: string }) => string>;
  /** An app's releases with their files on this machine (`status` locates errors in their source maps). */
  releasesOf(app: AppName): Promise<AppReleases<ReleaseInfo>>;
}

declare module 'fastify' {
  interface FastifyRequest {
    releaseToken?: ReleaseTokenIdentity;
  }
}

const AppParams = Type.Object({ app: Type.Unsafe<AppName>(Type.String({ enum: [...APP_NAMES] })) });

const Share = Type.Number({ exclusiveMinimum: 0, maximum: 100 });
const CanaryRules = {
  share: Share,
  minViews: Type.Optional(Type.Integer({ minimum: 1 })),
  promoteAfter: Type.Optional(Type.Integer({ minimum: 1 })),
};

/** A whole number of at least 1, as a query value (the app's validator does not coerce: query values are strings). */
const WholeText = Type.String({ pattern: '^[1-9][0-9]{0,8}$' });

const BuildQuery = Type.Object(
  {
    action: Type.Optional(Type.Union([Type.Literal('publish'), Type.Literal('stage'), Type.Literal('canary')])),
    /** A percentage above 0 and up to 100 (`10`, `12.5`). */
    share: Type.Optional(Type.String({ pattern: '^(?!0+(?:\\.0+)?$)(?:100(?:\\.0+)?|[0-9]{1,2}(?:\\.[0-9]+)?)$' })),
    minViews: Type.Optional(WholeText),
    promoteAfter: Type.Optional(WholeText),
    keep: Type.Optional(WholeText),
    /** `true`: a build some kept release holds, and a decision named, changes nothing (a container started again). */
    unlessKept: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    /**
     * The app's revision the upload's change is decided on (`GET /<app>` gives it): on any other
     * the upload is refused and nothing stored. Without it, the build is taken on the state it
     * meets: a build is published once however often it is sent (`unlessKept`, or the release
     * that already holds it), so a container's retry is safe without one.
     */
    expectRevision: Type.Optional(Type.String({ pattern: '^(0|[1-9][0-9]{0,12})$' })),
  },
  { additionalProperties: false },
);

/** A query value read as its number; undefined when absent. */
const numberOf = (text: string | undefined) => (text === undefined ? undefined : Number(text));

/** A command's body: the state it acts on (required), and its own fields. */
const CommandBody = <Fields extends Parameters<typeof Type.Object>[0]>(fields: Fields) =>
  Type.Object({ expect: ReleaseExpectationSchema, ...fields }, { additionalProperties: false });

function refusedAs(error: unknown): never {
  if (error instanceof ArchiveError) throw new ApiError(error.statusCode, 'BAD_ARCHIVE', error.message);
  return answerRefusal(error);
}

/**
 * How much of an upload refused as too large is read to its end, as a multiple of the limit: a
 * build a little past the limit (the usual mistake) is read whole so its team reads why; past
 * this the connection is closed on the sender.
 */
const DISCARDED_UPLOAD_FACTOR = 4;

/**
 * Reads and drops what is left of an upload refused as too large, up to `maxBytes` more, so the
 * answer follows the whole upload: closed with unread bytes, the connection is reset under a
 * client still sending, which then reports a broken pipe instead of the answer.
 */
function discardUpload(raw: IncomingMessage, maxBytes: number): Promise<void> {
  return new Promise((resolve) => {
    if (raw.readableEnded || raw.destroyed) return resolve();
    let read = 0;
    const done = () => {
      raw.off('data', onData).off('end', done).off('error', done).off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      read += chunk.length;
      if (read > maxBytes) done();
    };
    raw.on('data', onData).once('end', done).once('error', done).once('close', done);
    raw.resume();
  });
}

/** The bearer token a call carries, checked; 401 without a valid one, 403 for an app it may not release. */
function authenticate(context: Pick<ReleaseContext, 'db'>, siteUrl: string) {
  const devTokensAccepted = isLocalSite(siteUrl);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const header = request.headers.authorization ?? '';
    const token = /^Bearer\s+(\S+)$/i.exec(header)?.[1];
    const identity = token && (devTokensAccepted || !isDevToken(token)) ? await verifyReleaseToken(context.db, token) : undefined;
    if (!identity) {
      reply.header('www-authenticate', 'Bearer realm="releases"');
      throw new ApiError(401, 'UNAUTHORIZED', token ? 'The release token is unknown or revoked.' : 'Send a release token: Authorization: Bearer <token>.');
    }
    request.releaseToken = identity;
    const { app } = request.params as { app?: string };
    if (app !== undefined && !isAppName(app)) throw new ApiError(404, 'NOT_FOUND', `There is no app ${JSON.stringify(app)}: the apps are ${APP_NAMES.join(', ')}.`);
    if (app !== undefined && !(identity.apps as string[]).includes(app)) {
      request.log.warn({ token: identity.name, app }, 'release api: app not allowed for this token');
      throw new ApiError(403, 'FORBIDDEN', `The token ${identity.name} may release ${identity.apps.join(', ')}, not ${app}.`);
    }
  };
}

/**
 * The release API: what `npm run release` does, over HTTP, for teams' CI on any machine. Every
 * call needs a team token naming the app; every call is logged with the token's name. Answers are
 * the commands' results as JSON (the command line prints the same sentences from them as on the
 * server); a refused change is 409 with why, a bad upload 400/413/415 with what is wrong, and
 * nothing stored.
 */
export const registerReleaseApi: FastifyPluginAsyncTypebox<ReleaseApiOptions> = async (app, { context, uploadMaxBytes, siteUrl, previewLinks, releasesOf }) => {
  const contextOf = (request: FastifyRequest): ReleaseContext => ({ ...context, actor: `token:${request.releaseToken!.name}` });
  // A command names the state it acts on: a repeated or concurrent one is refused, never applied twice.
  const commandContextOf = (request: FastifyRequest & { body: { expect: ReleaseExpectation } }): ReleaseContext => ({ ...contextOf(request), expect: request.body.expect });
  // Any body but JSON as it came: an upload's type is checked by the route (with a message that
  // names what it takes), its archive by readReleaseArchive, which also knows the unpacked limit.
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: uploadMaxBytes }, (_request, body, done) => done(null, body));
  // Answers for teams' CI, in English, naming what was wrong; anything else as the rest of the API.
  app.setErrorHandler(async (error: FastifyError, request) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      await discardUpload(request.raw, DISCARDED_UPLOAD_FACTOR * uploadMaxBytes);
      throw new ApiError(413, 'BAD_ARCHIVE', `The release archive is larger than ${Math.round(uploadMaxBytes / 1024 / 1024)} MB (RELEASE_UPLOAD_MAX_MB).`);
    }
    if (error.validation) throw new ApiError(400, 'BAD_REQUEST', `Bad ${error.validationContext ?? 'request'}: ${error.message}`);
    throw error;
  });
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', NO_CACHE);
  });
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ token: request.releaseToken?.name ?? null, method: request.method, url: request.url, statusCode: reply.statusCode }, 'release api call');
  });
  const auth = authenticate(context, siteUrl);
  // A command's options come as JSON (Content-Type: application/json). Any other body (taken as
  // bytes, for uploads) is refused, never read as no options: `curl -d release=<id>` must not
  // promote the candidate instead. A command without the state it acts on is refused with how to
  // name it.
  const commandBody = async (request: FastifyRequest) => {
    if (Buffer.isBuffer(request.body)) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', "A command's options are sent as JSON (Content-Type: application/json).");
    }
    const expect = (request.body as { expect?: unknown } | undefined)?.expect;
    // The schema says the same; this says how to name it (a revision, or both releases).
    const named = typeof expect === 'object' && expect !== null && ('revision' in expect || ('current' in expect && 'candidate' in expect));
    if (!named) {
      const { app } = request.params as { app: string };
      throw new ApiError(
        400,
        'BAD_REQUEST',
        `Name the state this command acts on: {"expect":{"revision":<n>}} with the revision GET ${RELEASE_API_PATH}/${app} answers, or both releases it acts on, {"expect":{"current":<id or null>,"candidate":<id or null>}}. A repeated or concurrent command is then refused instead of applied twice.`,
      );
    }
  };
  const run = async (work: () => Promise<ReleaseResult | object>) => {
    try {
      return await work();
    } catch (error) {
      return refusedAs(error);
    }
  };

  app.get(`${RELEASE_API_PATH}/:app`, { schema: { params: AppParams }, onRequest: auth }, async (request) =>
    run(() => list(contextOf(request), request.params.app)),
  );

  app.get(
    `${RELEASE_API_PATH}/:app/status`,
    { schema: { params: AppParams, querystring: Type.Object({ since: Type.Optional(Type.String({ maxLength: 40 })) }, { additionalProperties: false }) }, onRequest: auth },
    async (request) => {
      const { since: sinceText } = request.query;
      const since = sinceText === undefined ? new Date(Date.now() - DEFAULT_STATUS_WINDOW_MS) : parseSince(sinceText);
      if (!since) throw new ApiError(400, 'BAD_REQUEST', `since must be a duration such as 30m, 1h or 2d, or a past moment, got "${sinceText}"`);
      return releaseStatus({ db: context.db, staticRoot: context.staticRoot, releasesOf }, request.params.app, since);
    },
  );

  // A build: published and made current (default), staged, or made a canary's candidate.
  app.post(
    `${RELEASE_API_PATH}/:app/builds`,
    {
      schema: { params: AppParams, querystring: BuildQuery },
      // The token before the body: an unauthorised upload is refused without being read.
      onRequest: auth,
      preValidation: async (request) => checkReleaseArchiveTypeOf(request),
    },
    async (request) =>
      run(async () => {
        const { app: name } = request.params;
        const query = {
          ...request.query,
          share: numberOf(request.query.share),
          minViews: numberOf(request.query.minViews),
          promoteAfter: numberOf(request.query.promoteAfter),
          keep: numberOf(request.query.keep),
          unlessKept: request.query.unlessKept === 'true',
        };
        const archive = await readReleaseArchive(request.body as Buffer, { app: name, maxUnpackedBytes: uploadMaxBytes });
        const expectRevision = numberOf(request.query.expectRevision);
        const ctx = { ...contextOf(request), ...(expectRevision !== undefined && { expect: { revision: expectRevision } }) };
        if (query.unlessKept) {
          // A build a decision was made about (current, staged, a canary, rolled back) is left as
          // it is: a container started again must not undo a rollback. One stored by an upload
          // whose change was then refused (a concurrent change) is taken on by the retry.
          const kept = await findStoredRelease(ctx.db, name, { digest: contentDigest(archive.files) });
          if (kept && (await wasDecided(ctx.db, name, kept.id))) return { kind: 'kept', app: name, release: kept };
        }
        const build = { files: archive.files, stamp: archive.stamp, source: `an upload by ${request.releaseToken!.name}` };
        const action = query.action ?? 'publish';
        if (action === 'stage') {
          const link = await previewLinks();
          return stage(ctx, name, build, (release) => link({ app: name, release }), query.keep);
        }
        if (action === 'canary') {
          if (query.share === undefined) throw new ApiError(400, 'BAD_REQUEST', 'action=canary needs share (percent of visitors above 0 and up to 100)');
          return canary(ctx, name, {
            build,
            share: query.share,
            minViews: query.minViews ?? DEFAULT_MIN_VIEWS,
            promoteAfter: query.promoteAfter ?? null,
            keep: query.keep,
          });
        }
        return publish(ctx, name, build, query.keep);
      }),
  );

  app.post(
    `${RELEASE_API_PATH}/:app/promote`,
    {
      schema: { params: AppParams, body: CommandBody({ release: Type.Optional(ReleaseIdSchema) }) },
      onRequest: auth,
      preValidation: commandBody,
    },
    async (request) => {
      const ctx = commandContextOf(request);
      return run(() => (request.body.release ? promote(ctx, request.params.app, request.body.release) : promoteCandidate(ctx, request.params.app)));
    },
  );
  app.post(`${RELEASE_API_PATH}/:app/rollback`, { schema: { params: AppParams, body: CommandBody({}) }, onRequest: auth, preValidation: commandBody }, async (request) =>
    run(() => rollback(commandContextOf(request), request.params.app)),
  );
  app.post(`${RELEASE_API_PATH}/:app/abort`, { schema: { params: AppParams, body: CommandBody({}) }, onRequest: auth, preValidation: commandBody }, async (request) =>
    run(() => abort(commandContextOf(request), request.params.app)),
  );
  app.post(
    `${RELEASE_API_PATH}/:app/canary`,
    {
      schema: {
        params: AppParams,
        body: CommandBody({ release: ReleaseIdSchema, ...CanaryRules, keep: Type.Optional(Type.Integer({ minimum: 1 })) }),
      },
      onRequest: auth,
      preValidation: commandBody,
    },
    async (request) => {
      const { release, share, minViews, promoteAfter, keep } = request.body;
      return run(() => canary(commandContextOf(request), request.params.app, { id: release, share, minViews: minViews ?? DEFAULT_MIN_VIEWS, promoteAfter: promoteAfter ?? null, keep }));
    },
  );

  function checkReleaseArchiveTypeOf(request: FastifyRequest): void {
    try {
      checkReleaseArchiveType(request.headers['content-type']);
    } catch (error) {
      refusedAs(error);
    }
  }
};
