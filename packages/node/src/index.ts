export { type ClientOptions, createPaymentService, type PaymentService } from './client.ts';
export {
  ApiError,
  type ApiErrorDetails,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  ConnectionError,
  type FieldError,
  NotFoundError,
  PaymentServiceError,
  PermissionError,
  RateLimitError,
  ServerError,
  UnprocessableError,
} from './errors.ts';
export { type ListPage, PagePromise } from './pagination.ts';
export { type BodyOf, type CallOptions, RESOURCES, type Route } from './resources.ts';
export type { components, operations, paths } from './schema.d.ts';
export { IDEMPOTENCY_HEADER, type RetryOptions } from './transport.ts';
export {
  BodyParsedError,
  BodyTooLargeError,
  DEFAULT_TOLERANCE_SECONDS,
  MalformedSignatureHeaderError,
  MissingSignatureHeaderError,
  SECRET_PREFIX,
  SIGNATURE_HEADER,
  SignatureMismatchError,
  TimestampOutsideToleranceError,
  type VerifyWebhookOptions,
  verifyRequest,
  verifyWebhook,
  type WebhookErrorCode,
  type WebhookEvent,
  WebhookVerificationError,
  WrongSecretError,
  webhookHandler,
} from './webhooks.ts';
