import type { Mailer, MailLog, MailMessage } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';

/** A Mailer that records what it was asked to send; `failNext` makes the next sends throw. */
export class RecordingMailer implements Mailer {
  readonly sent: MailMessage[] = [];
  failNext = 0;

  async send(message: MailMessage): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('mail provider unavailable');
    }
    this.sent.push(message);
  }
}

/** MailLog with the DynamoDB adapter's semantics (claim, lease, sent mark, release). */
export class FakeMailLog implements MailLog {
  readonly markers = new Map<string, { state: 'sending' | 'sent'; leaseUntil: number }>();
  failMarkSent = false;

  async claim(key: string, now: Date, leaseSeconds: number): Promise<void> {
    const current = this.markers.get(key);
    if (current && (current.state === 'sent' || current.leaseUntil >= now.getTime())) {
      throw new ConflictError('The message was already sent', 'mail_already_sent', {
        reason: 'already_exists',
      });
    }
    this.markers.set(key, { state: 'sending', leaseUntil: now.getTime() + leaseSeconds * 1000 });
  }

  async markSent(key: string): Promise<void> {
    if (this.failMarkSent) throw new Error('table unavailable');
    const current = this.markers.get(key);
    if (current) current.state = 'sent';
  }

  async release(key: string): Promise<void> {
    if (this.markers.get(key)?.state === 'sending') this.markers.delete(key);
  }
}
