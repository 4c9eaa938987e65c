// The one way the apps reach react-router. Module Federation shares this module, not the whole
// package: a shared module cannot be tree-shaken (any remote might use any export), so sharing
// react-router itself sent all of it (about 50 KiB compressed) to every visitor. Shared here, only
// what this list names is built in. An app that needs more adds it here.
export {
  BrowserRouter,
  HashRouter,
  Link,
  matchPath,
  MemoryRouter,
  Route,
  Routes,
  StaticRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  useParams,
} from 'react-router-dom';
