// What a static app's image (the shell or a remote) is assembled from: static-app.Dockerfile copies
// these (docker-files.test.ts checks that), and the topology e2e suite runs them the same way.

/** Common nginx configuration, copied whole into NGINX_CONF_DIR. */
export const NGINX_COMMON_DIR = 'shared/deploy/nginx/common';
/** The server block of each kind of app, copied as SITE_TEMPLATE_NAME. */
export const SITE_TEMPLATES = {
  shell: 'shell/deploy/nginx-site.conf.template',
  remote: 'shared/deploy/nginx/remote-site.conf.template',
} as const;
export const SITE_TEMPLATE_NAME = 'site.conf.template';
/** Where the image keeps the templates (the entrypoint's default NGINX_CONF_DIR). */
export const NGINX_CONF_DIR = '/etc/agency-nginx';
export const ENTRYPOINT = 'shared/deploy/static-app-entrypoint.sh';
