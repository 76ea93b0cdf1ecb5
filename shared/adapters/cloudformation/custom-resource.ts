import type { CloudFormationCustomResourceEvent } from 'aws-lambda';

export interface CustomResourceAnswer {
  status: 'SUCCESS' | 'FAILED';
  /** Shown in the stack's events; required by CloudFormation for a failure. */
  reason?: string;
  data?: Record<string, string>;
}

/** The one physical id of a custom resource that stands for an action, not a thing. */
export const PHYSICAL_ID = 'migrations';

/**
 * Answers CloudFormation: a PUT of the response document to the event's pre-signed S3 URL. The
 * URL is a capability (anyone holding it can answer), so it is never logged.
 */
export async function answerCloudFormation(
  event: CloudFormationCustomResourceEvent,
  answer: CustomResourceAnswer,
): Promise<void> {
  const body = JSON.stringify({
    Status: answer.status,
    Reason: (answer.reason ?? answer.status).slice(0, 1000),
    PhysicalResourceId: 'PhysicalResourceId' in event ? event.PhysicalResourceId : PHYSICAL_ID,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: answer.data ?? {},
  });
  // The pre-signed URL was signed without a content type: sending one would break the signature.
  const response = await fetch(event.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
  if (!response.ok) throw new Error(`CloudFormation's response URL answered ${response.status}`);
}
