// What the nodes use of the transport; the rest of the folder is its inside.
export { nexthinkRequest, readAnswerText, scrubAnswerText } from './request';
export { boundedBody } from './streamedBodies';
export { DEFAULT_RETRY_POLICY } from './retryPolicy';
export { cancelSignalOf, sleepUnlessCancelled, throwIfCancelled } from './hostCompat';
export type { NexthinkContext, NexthinkRequest, NexthinkResponse } from './types';
export { isNoAnswerError, keepMessage, readApiErrorBody, tlsCertificateHint } from './apiErrors';
export { unexpectedAnswer, unprovenAnswerError, notJsonBody, mediaTypeOf, PROXY_MAY_HAVE_ANSWERED, type AnswerOrigin } from './apiErrors';
export { fetchPresignedFile, isInterruptedDownload } from './presignedFile';
export { REDACTED } from './secretScrub';
