import type { Mailbox, MailLog, MailSummary, StoredMail } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { keys } from './keys';
import { ConditionFailedError, type Item, orConflict, type Table } from './table';

const MAIL_ENTITY = 'sandbox-mail';
const MAIL_TO_ENTITY = 'sandbox-mail-to';
const LOG_ENTITY = 'mail-log';
/** Sandbox mail is kept 30 days, like delivery logs; the marker of a sent message as long. */
const RETENTION_SECONDS = 30 * 86_400;

const epochSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function toSummary(item: Item): MailSummary {
  return {
    id: String(item.id),
    tenant: { sellerId: Number(item.sellerId), environment: item.environment as Tenant['environment'] },
    to: String(item.to),
    subject: String(item.subject),
    kind: (item.kind as string | undefined) ?? null,
    createdAt: String(item.createdAt),
  };
}

const toMail = (item: Item): StoredMail => ({
  ...toSummary(item),
  text: String(item.text ?? ''),
  html: (item.html as string | undefined) ?? null,
});

/**
 * The sandbox mailbox on AWS: a test tenant's messages in its own partition, so another tenant's
 * keys can never reach them. Each message is written with a body-less copy under its recipient, in
 * one transaction, so both lists (all, or to one address) are a prefix Query newest first.
 */
export function createSandboxMailbox(table: Table): Mailbox {
  return {
    async keep(mail) {
      const tenant = mail.tenant;
      // The routing mailer sends only test tenants' mail here; anything else is a wiring error.
      if (!tenant) throw new Error('the sandbox mailbox keeps mail of a tenant only');
      const common: Item = {
        version: 1,
        id: mail.id,
        sellerId: tenant.sellerId,
        environment: tenant.environment,
        to: mail.to,
        subject: mail.subject,
        kind: mail.kind ?? undefined,
        createdAt: mail.createdAt,
        ttl: epochSeconds(mail.createdAt) + RETENTION_SECONDS,
      };
      await table.transact([
        {
          Put: {
            Item: {
              ...keys.mail(tenant, mail.id),
              entity: MAIL_ENTITY,
              ...common,
              text: mail.text,
              html: mail.html ?? undefined,
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        { Put: { Item: { ...keys.mailTo(tenant, mail.to, mail.id), entity: MAIL_TO_ENTITY, ...common } } },
      ]);
    },

    async list(tenant, query) {
      const prefix = query.to ? keys.mailToPrefix(query.to.toLowerCase()) : keys.mailPrefix;
      const page = await table.queryPage<Item>(
        {
          KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
          ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' },
          ExpressionAttributeValues: { ':pk': keys.tenant(tenant), ':prefix': prefix },
          ScanIndexForward: false,
          cursor: query.cursor,
        },
        query.limit,
      );
      return { items: page.items.map(toSummary), cursor: page.cursor };
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.mail(tenant, id));
      return item ? toMail(item) : null;
    },
  };
}

/** Markers of messages that must go out once; see MailLog. */
export function createMailLog(table: Table): MailLog {
  return {
    async claim(key, now, leaseSeconds) {
      const at = now.toISOString();
      await orConflict(
        table.put(
          {
            ...keys.mailLog(key),
            entity: LOG_ENTITY,
            version: 1,
            state: 'sending',
            claimedAt: at,
            leaseUntil: new Date(now.getTime() + leaseSeconds * 1000).toISOString(),
            ttl: epochSeconds(at) + RETENTION_SECONDS,
          },
          {
            // Absent, or claimed by an attempt whose lease ran out without sending.
            ConditionExpression: 'attribute_not_exists(pk) OR (#state = :sending AND #lease < :now)',
            ExpressionAttributeNames: { '#state': 'state', '#lease': 'leaseUntil' },
            ExpressionAttributeValues: { ':sending': 'sending', ':now': at },
          },
        ),
        (cause) =>
          new ConflictError('The message was already sent', 'mail_already_sent', {
            reason: 'already_exists',
            cause,
          }),
      );
    },

    async markSent(key, now) {
      await table.update({
        Key: keys.mailLog(key),
        UpdateExpression: 'SET #state = :sent, sentAt = :at, version = version + :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':sent': 'sent', ':at': now.toISOString(), ':one': 1 },
      });
    },

    async release(key) {
      try {
        await table.delete(keys.mailLog(key), {
          condition: '#state = :sending',
          names: { '#state': 'state' },
          values: { ':sending': 'sending' },
        });
      } catch (error) {
        // Already sent (or gone): nothing to release.
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    },
  };
}
