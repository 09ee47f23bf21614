export { nexthinkRequest, cancelSignalOf, throwIfCancelled, NEXTHINK_CREDENTIAL_TYPE } from './request';
export type { NexthinkRequest, NexthinkResponse } from './request';
export { cancellableSleep } from './hostCompat';
export { apiError, readApiErrorBody } from './apiErrors';
export type { StatusHints } from './apiErrors';
export { parseRetryAfterMs } from './retryPolicy';
