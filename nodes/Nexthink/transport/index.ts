// What the nodes use of the transport; the rest of the folder is its inside.
export { nexthinkRequest, cancelSignalOf, sleepUnlessCancelled, throwIfCancelled } from './request';
export type { NexthinkRequest, NexthinkResponse } from './request';
export { cancellableSleep } from './hostCompat';
export { isNoAnswerError, keepMessage, readApiErrorBody } from './apiErrors';
export { unexpectedAnswer, mediaTypeOf, type AnswerOrigin } from './unexpectedAnswer';
