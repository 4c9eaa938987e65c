import type { BlogListing, BlogPost, BlogPostSummary, Service } from '../contracts/types';
import type { BlogListingLocation } from '../constants/blog';
import {
  blogListingApiPath,
  blogPostPath,
  fetchBlogListing,
  fetchBlogPost,
  fetchBlogPosts,
  fetchRelatedPosts,
  fetchServices,
  relatedPostsPath,
} from '../api/api-client';
import { isBlogPost, isBlogPostSummary, isService, readBlogListing, readListOf, readWhole } from '../api/response-guards';
import type { ApiResource } from './api-resource';

/** Every published service: the home's services section. */
export const servicesResource: ApiResource<Service[]> = {
  path: '/services',
  load: fetchServices,
  read: readListOf(isService),
};

/** The newest `limit` posts: the home's blog teaser. */
export function latestPostsResource(limit: number): ApiResource<BlogPostSummary[]> {
  return { path: `/blog?limit=${limit}`, load: () => fetchBlogPosts(limit), read: readListOf(isBlogPostSummary) };
}

/** One post by the id in its URL: the post page. */
export function blogPostResource(postId: string): ApiResource<BlogPost> {
  return { path: blogPostPath(postId), load: () => fetchBlogPost(postId), read: readWhole(isBlogPost) };
}

/** One page of the blog listing, optionally of one category: the listing page. */
export function blogListingResource(location: BlogListingLocation): ApiResource<BlogListing> {
  const path = blogListingApiPath(location);
  return { path, load: () => fetchBlogListing(path), read: readBlogListing };
}

/** The posts to read next under a post. */
export function relatedPostsResource(postId: string): ApiResource<BlogPostSummary[]> {
  return { path: relatedPostsPath(postId), load: () => fetchRelatedPosts(postId), read: readListOf(isBlogPostSummary) };
}
