/**
 * The contract between the shell and the remotes: the props of every exposed module. The module
 * ids come from `registry.json`; the check below makes this list and the registry agree exactly,
 * so renaming or removing an expose fails type-checking wherever the shell names it. Each remote's
 * exposed default export is checked against the same props (`npm run typecheck` in each remote).
 */
import type { ComponentType } from 'react';
import type registry from './registry.json';
import type { BlogListingLocation } from '../constants/blog';
import type { RemoteName } from '../contracts/app-names';
import type { BlogPost, Service } from '../contracts/types';

export interface BlogPostPageProps {
  postId: string;
}

/** Which listing page to show: `/blog?category=…&page=…` parsed (see parseBlogListingSearch). */
export type BlogListPageProps = BlogListingLocation;

/** A post as it would be published (the staff console's preview of an article). */
export interface BlogPostPreviewProps {
  post: BlogPost;
}

/** Services as they would be shown (the staff console's preview of its changes). */
export interface ServicesPreviewProps {
  services: Service[];
}

/** Props of an exposed component that takes none. */
export type NoProps = Record<string, never>;

/** The props each exposed module's default export takes, by `remote/Module` id. */
export interface ExposedModuleProps {
  'home/Hero': NoProps;
  'home/About': NoProps;
  'home/Services': NoProps;
  'home/Reasons': NoProps;
  'home/Team': NoProps;
  'home/Vacancies': NoProps;
  'home/ContactDetails': NoProps;
  'home/ServicesPreview': ServicesPreviewProps;
  'blog/BlogTeaser': NoProps;
  'blog/BlogPostPage': BlogPostPageProps;
  'blog/BlogListPage': BlogListPageProps;
  'blog/BlogPostPreview': BlogPostPreviewProps;
  'forms/JobApplicationForm': NoProps;
  'forms/ContactForm': NoProps;
  'staff/StaffConsole': NoProps;
}

type Remotes = (typeof registry)['remotes'];

/**
 * Every `remote/Module` id the registry exposes: the ids the shell may load, so a renamed expose
 * fails where the shell names it.
 */
export type RemoteModuleId = {
  [R in keyof Remotes]: `${R & string}/${keyof Remotes[R]['exposes'] & string}`;
}[keyof Remotes];

/** The remote that exposes a module: `home` of `home/Hero`. */
export function remoteOfModule(id: RemoteModuleId): RemoteName;
/** The remote part of a `remote/Module` id read from outside (a page's markup). */
export function remoteOfModule(id: string): string;
export function remoteOfModule(id: string): string {
  return id.slice(0, id.indexOf('/'));
}

/** Props of a module by id; `never` for an id the contract does not list (the check below fails then). */
export type PropsOf<Id extends RemoteModuleId> = Id extends keyof ExposedModuleProps ? ExposedModuleProps[Id] : never;

export type ExposedComponent<Id extends RemoteModuleId> = ComponentType<PropsOf<Id>>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Fails to compile, naming the odd ids, when the registry and the props above list different
 * modules.
 */
export const REGISTRY_MATCHES_CONTRACT: Same<RemoteModuleId, keyof ExposedModuleProps> extends true
  ? true
  : { unlistedInContract: Exclude<RemoteModuleId, keyof ExposedModuleProps>; notInRegistry: Exclude<keyof ExposedModuleProps, RemoteModuleId> } = true;
