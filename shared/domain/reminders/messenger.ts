import type { Deps } from '#shared/domain/deps';
import { toStoredMail } from '#shared/domain/mail/delivery';
import type { ChannelMessage, MailStore, Messenger } from '#shared/domain/ports';

const LABEL = { whatsapp: 'WhatsApp', sms: 'SMS' } as const;

/**
 * A Messenger that keeps each message in the mailbox instead of sending it, as the kept mail is:
 * addressed to the phone number, the channel in its subject and kind, the text as the customer
 * would read it. The credentials never reach the mailbox.
 */
export function keepingMessenger(deps: Pick<Deps, 'ids' | 'clock'> & { store: MailStore }): Messenger {
  return {
    send: (message) =>
      deps.store.keep(
        toStoredMail(deps, {
          to: message.to,
          subject:
            message.channel === 'whatsapp'
              ? `${LABEL.whatsapp} (modelo ${message.template.name})`
              : LABEL.sms,
          text: message.text,
          tenant: message.tenant,
          kind: `${message.kind}_${message.channel}`,
        }),
      ),
  };
}

/** A sandbox tenant's messages are kept, never sent (as its mail); the others go to the live messenger. */
export function routeMessages(deps: { sandbox: Messenger; live: Messenger }): Messenger {
  return {
    send: (message: ChannelMessage) =>
      message.tenant.environment === 'test' ? deps.sandbox.send(message) : deps.live.send(message),
  };
}

/** The live messenger of each channel, one adapter per provider. */
export function byChannel(channels: { whatsapp: Messenger; sms: Messenger }): Messenger {
  return { send: (message) => channels[message.channel].send(message) };
}
