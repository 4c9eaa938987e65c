import { ApiError } from '../../platform/http/api-error';

/**
 * A 409 for a change made from a version that moved on: the body carries the thing as it is now
 * (`current`), so the console shows it and the person decides again.
 */
export class ChangedError<T> extends ApiError {
  constructor(
    code: string,
    message: string,
    readonly current: T,
  ) {
    super(409, code, message);
  }

  override toBody() {
    return { ...super.toBody(), current: this.current };
  }
}
