import type { Mailbox, MailLog } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { mailLogEntity, sandboxMailEntity, sandboxMailToEntity } from './entities/mail';
import { keys } from './keys';
import { ConditionFailedError, type Item, orConflict, type Table } from './table';

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
      const kept = { ...mail, tenant };
      await table.transact([
        { Put: { Item: sandboxMailEntity.toItem(kept), ConditionExpression: 'attribute_not_exists(pk)' } },
        { Put: { Item: sandboxMailToEntity.toItem(kept) } },
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
      // A message and its copy under the recipient hold the same summary.
      return { items: page.items.map(sandboxMailToEntity.fromItem), cursor: page.cursor };
    },

    async get(tenant, id) {
      const item = await table.get<Item>(keys.mail(tenant, id));
      return item ? sandboxMailEntity.fromItem(item) : null;
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
          mailLogEntity.toItem({
            key,
            claimedAt: at,
            leaseUntil: new Date(now.getTime() + leaseSeconds * 1000).toISOString(),
          }),
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
