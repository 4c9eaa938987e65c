import axios from 'axios';
import type {
  BlogListing,
  BlogPost,
  BlogPostSummary,
  ContactMessage,
  CreatedResponse,
  JobApplication,
  Service,
} from '../types';
import { HONEYPOT_FIELD } from '../types';

/** The browser apps call the API on the page's own origin under /api (spec section 7). */
export const apiClient = axios.create({
  baseURL: '/api',
  timeout: 15000,
  headers: { Accept: 'application/json' },
});

export async function fetchServices(): Promise<Service[]> {
  const response = await apiClient.get<Service[]>('/services');
  return response.data;
}

export async function fetchBlogPosts(limit?: number): Promise<BlogPostSummary[]> {
  const response = await apiClient.get<BlogPostSummary[]>('/blog', {
    params: limit === undefined ? undefined : { limit },
  });
  return response.data;
}

/** The API path of one post, below /api; also the key of its server-rendered data. */
export function blogPostPath(postId: string): string {
  return `/blog/${encodeURIComponent(postId)}`;
}

export async function fetchBlogPost(postId: string): Promise<BlogPost> {
  const response = await apiClient.get<BlogPost>(blogPostPath(postId));
  return response.data;
}

/**
 * The API path of one listing page, below /api (also the key of its server-rendered data): the
 * page always, the category when there is one, in that order, so one page has one key.
 */
export function blogListingApiPath({ category, page }: { category: string | null; page: number }): string {
  const categoryParam = category ? `&category=${encodeURIComponent(category)}` : '';
  return `/blog/listing?page=${page}${categoryParam}`;
}

export async function fetchBlogListing(apiPath: string): Promise<BlogListing> {
  const response = await apiClient.get<BlogListing>(apiPath);
  return response.data;
}

/** The API path of the posts related to one post, below /api. */
export function relatedPostsPath(postId: string): string {
  return `${blogPostPath(postId)}/related`;
}

export async function fetchRelatedPosts(postId: string): Promise<BlogPostSummary[]> {
  const response = await apiClient.get<BlogPostSummary[]>(relatedPostsPath(postId));
  return response.data;
}

/**
 * `honeypot` is the value of the form's hidden trap field: empty from people, filled by bots.
 * The API answers a filled one like success and stores nothing.
 */
export async function submitJobApplication(application: JobApplication, honeypot = ''): Promise<CreatedResponse> {
  const response = await apiClient.post<CreatedResponse>('/jobs/apply', {
    ...application,
    [HONEYPOT_FIELD]: honeypot,
  });
  return response.data;
}

export async function submitContactMessage(message: ContactMessage, honeypot = ''): Promise<CreatedResponse> {
  const response = await apiClient.post<CreatedResponse>('/contact', {
    ...message,
    [HONEYPOT_FIELD]: honeypot,
  });
  return response.data;
}
