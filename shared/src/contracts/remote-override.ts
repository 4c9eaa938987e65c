import { Type, type Static } from '@sinclair/typebox';
import { REMOTE_NAMES, type RemoteName } from './app-names';
import { LOCAL_BUILD_PORTS } from './limits';
import { ReleaseIdSchema } from './release-commands';
import { StringEnum } from './schema-builders';

/**
 * An override for one browser (`/api/staff/releases/:app/override`): a release manager points one
 * remote of the live site, for their own browser only, at a kept release of it or at a build
 * served from their own machine. The API checks the app is a remote of the public pages.
 */
export const RemoteOverrideParamsSchema = Type.Object({ app: StringEnum<RemoteName>(REMOTE_NAMES) }, { additionalProperties: false });

/**
 * What the remote becomes for this browser, one of: a kept `release`, or the build its own machine
 * serves on `port` (`http://localhost:<port>/mf-manifest.json`). One object with exactly one of
 * them, not a union: the API's validator strips unknown properties before it counts them.
 */
export const RemoteOverrideBodySchema = Type.Object(
  {
    release: Type.Optional(ReleaseIdSchema),
    port: Type.Optional(Type.Integer({ minimum: LOCAL_BUILD_PORTS.min, maximum: LOCAL_BUILD_PORTS.max })),
  },
  { additionalProperties: false, minProperties: 1, maxProperties: 1 },
);
export type RemoteOverrideBody = Static<typeof RemoteOverrideBodySchema>;

/** A browser's override: one remote, one target (a release or a port, the other null), until when. */
export const RemoteOverrideViewSchema = Type.Object({
  app: Type.String(),
  release: Type.Union([Type.String(), Type.Null()]),
  port: Type.Union([Type.Integer(), Type.Null()]),
  /** ISO time it ends by itself (sooner if the session that set it ends). */
  expiresAt: Type.String(),
});
export type RemoteOverrideView = Static<typeof RemoteOverrideViewSchema>;

/** This browser's override now, if any: one at a time, a new one replaces it. */
export const RemoteOverrideStateSchema = Type.Object({ override: Type.Union([RemoteOverrideViewSchema, Type.Null()]) });
export type RemoteOverrideState = Static<typeof RemoteOverrideStateSchema>;
