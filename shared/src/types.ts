/** Data contracts between the API and the browser apps (spec section 3). */

export interface Service {
  id: number;
  title: string;
  description: string;
  icon_url: string;
  features: string[];
  /** Starting price in hryvnias; null when the price is individual. */
  price_from: number | null;
}

export interface BlogPostSummary {
  id: number;
  title: string;
  excerpt: string;
  category: string;
  image_url: string;
  /** ISO 8601 timestamp. */
  created_at: string;
  author: string;
}

export interface BlogPost extends BlogPostSummary {
  /** Sanitized HTML. */
  content: string;
}

export type ServiceType = 'smm' | 'content' | 'leads' | 'analytics';

export interface JobApplication {
  name: string;
  email: string;
  phone: string;
  city: string;
  position: string;
  resume_text: string;
}

export interface ContactMessage {
  name: string;
  email: string;
  phone: string;
  company: string;
  service_type: ServiceType | '';
  message: string;
}

/** Name of the anti-spam field both forms send empty; bots that fill it are ignored. */
export const HONEYPOT_FIELD = 'website';

export interface CreatedResponse {
  id: number;
}

export interface ApiErrorBody {
  error: {
    code: string;
    message: string;
    fields?: Record<string, string>;
  };
}
