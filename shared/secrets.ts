/**
 * Every secret a function reads at run time, one row each. On AWS a row is a Secrets Manager secret
 * (infra/stack.ts makes one per row): only the functions that declare it in
 * infra/constructs/permissions.ts get its ARN, in `arnVariable`, and the grant to read it; the value
 * itself is never in the template, an environment variable or a log. Locally it is `localFile` in the
 * data folder. Each is read once per container and used as a 32-byte key (shared/domain/ports SecretKey).
 */
export const SECRETS = {
  magicLink: {
    arnVariable: 'MAGIC_LINK_SECRET_ARN',
    localFile: 'magic-link.key',
    description: 'Key of the customer area magic links',
    rotation: 'Rotating it only signs every customer out (links live 30 minutes); it is rotated by hand.',
  },
  gatewayWebhook: {
    arnVariable: 'GATEWAY_WEBHOOK_SECRET_ARN',
    localFile: 'gateway-webhook.key',
    description: 'HMAC key of the sandbox provider notifications',
    rotation:
      'Rotating it would refuse the sandbox notifications in flight; it is rotated by hand, between test runs.',
  },
  boletoPdf: {
    arnVariable: 'BOLETO_PDF_SECRET_ARN',
    localFile: 'boleto-pdf.key',
    description: 'HMAC key of the sandbox boleto document links',
    rotation:
      'Rotating it breaks the sandbox boleto links already sent (test data only); it is rotated by hand.',
  },
  cardTesting: {
    arnVariable: 'CARD_TESTING_SECRET_ARN',
    localFile: 'card-testing.key',
    description: 'Key of card fingerprints and proof-of-work challenges',
    rotation:
      'Rotating it only restarts the decline counts per card and the open challenges (10 minutes); it is rotated by hand.',
  },
} as const satisfies Record<string, SecretDefinition>;

export interface SecretDefinition {
  /** The environment variable that carries the secret's ARN to the functions granted it. */
  arnVariable: string;
  /** The key file in the local runtime's data folder. */
  localFile: string;
  /** The Secrets Manager secret's description. */
  description: string;
  /** Why it has no automatic rotation (cdk-nag AwsSolutions-SMG4). */
  rotation: string;
}

export type SecretName = keyof typeof SECRETS;

export const SECRET_NAMES = Object.keys(SECRETS) as SecretName[];
