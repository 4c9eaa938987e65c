import { AxiosError, AxiosHeaders } from 'axios';

// Jest's manual mock of the staff API client, taken by `jest.mock('…/shared/api/staff-api')`:
// the calls that reach the server are mocks; reading an error (statusOf, messageOf) stays real.
const actual = jest.requireActual<typeof import('../staff-api')>('../staff-api');

export const { setUnauthorizedHandler, setCsrfToken, staffApi, statusOf, messageOf } = actual;
export const staffGet = jest.fn();
export const staffSend = jest.fn();
export const staffUpload = jest.fn();
export const staffDownload = jest.fn();
export const fetchResponseReport = jest.fn();
export const unlinkLead = jest.fn();
export const fetchFollowUpSettings = jest.fn();
export const saveFollowUpSettings = jest.fn();
export const fetchLeadRouting = jest.fn();
export const saveLeadRouting = jest.fn();
export const fetchDashboard = jest.fn();
export const saveWeeklyReport = jest.fn();

/** The error axios rejects with when the API answers `status` with this JSON body. */
export function apiAnswered(status: number, data: object): AxiosError {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError(String(status), 'ERR_BAD_REQUEST', config, {}, { status, statusText: '', data, headers: {}, config });
}
