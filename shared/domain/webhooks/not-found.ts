// Apart from endpoints.ts so that the DynamoDB adapter reads it without building that module's zod
// schemas at every function's cold start (every function loads the repositories).
export const WEBHOOK_ENDPOINT_NOT_FOUND = 'Webhook endpoint not found';
