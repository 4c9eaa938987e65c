import '@agency/shared/styles/tokens.css';
import { Route, Routes } from '@agency/shared/router';
import { Redirect } from '../shared/ui/Redirect';
import { STAFF_PATHS } from '@agency/shared';
import StaffConsole from './StaffConsole';

/** The console alone, for developing this remote (`npm run dev -w mfe-staff`), at the same `/staff/*` paths. */
export function StandalonePage() {
  return (
    <Routes>
      <Route path="/staff/*" element={<StaffConsole />} />
      <Route path="*" element={<Redirect to={STAFF_PATHS.home} />} />
    </Routes>
  );
}
