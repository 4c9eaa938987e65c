import type { BlogPost, BlogPostSummary, Service } from '../types';
import { blogPostPath, fetchBlogPost, fetchBlogPosts, fetchServices } from '../api/api-client';
import { arrayOf, isBlogPost, isBlogPostSummary, isService } from '../api/response-guards';
import type { ApiResource } from './api-resource';

/** Every published service: the home's services section. */
export const servicesResource: ApiResource<Service[]> = {
  path: '/services',
  load: fetchServices,
  isValid: arrayOf(isService),
};

/** The newest `limit` posts: the home's blog teaser. */
export function latestPostsResource(limit: number): ApiResource<BlogPostSummary[]> {
  return { path: `/blog?limit=${limit}`, load: () => fetchBlogPosts(limit), isValid: arrayOf(isBlogPostSummary) };
}

/** One post by the id in its URL: the post page. */
export function blogPostResource(postId: string): ApiResource<BlogPost> {
  return { path: blogPostPath(postId), load: () => fetchBlogPost(postId), isValid: isBlogPost };
}
