// Development ports of the apps, shared by the webpack configs and `npm run dev`.
const DEV_PORTS = { shell: 8080, home: 8081, blog: 8082, forms: 8083, api: 3000 };

/** Manifest URLs the shell's dev server hands out; REMOTE_*_URL still override them. */
function devRemotesConfig(env) {
  const local = (name) => `http://localhost:${DEV_PORTS[name]}/mf-manifest.json`;
  return {
    home: env.REMOTE_HOME_URL || local('home'),
    blog: env.REMOTE_BLOG_URL || local('blog'),
    forms: env.REMOTE_FORMS_URL || local('forms'),
  };
}

module.exports = { DEV_PORTS, devRemotesConfig };
