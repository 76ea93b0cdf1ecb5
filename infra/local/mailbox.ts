import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { INVALID_CURSOR } from '#shared/adapters/dynamodb/cursor';
import { MAIL_ID } from '#shared/domain/mail/delivery';
import type { Mailbox, MailboxPage, MailboxQuery, StoredMail } from '#shared/domain/ports';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { ValidationError } from '#shared/errors';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';

/**
 * E-mail, locally: every message the service sends, sandbox or live, is kept as one JSON file
 * `<dataDir>/mail/<id>.json` (readable with any editor, removable by hand), or in memory when the
 * runtime keeps nothing (tests). The sandbox test helper reads it through the same MailboxReader
 * port as the table's sandbox mailbox on AWS; ids sort by time, so file names list newest last.
 */
export class LocalMailbox implements Mailbox {
  private readonly memory = new Map<string, StoredMail>();

  constructor(readonly dir: string | null) {}

  async keep(mail: StoredMail): Promise<void> {
    if (!MAIL_ID.test(mail.id)) throw new Error(`not a mail id: ${mail.id}`);
    if (!this.dir) {
      this.memory.set(mail.id, mail);
      return;
    }
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const file = join(this.dir, `${mail.id}.json`);
    // Messages carry live links (the customer area's, pay links): owner-only.
    writeFileSync(`${file}.tmp`, `${JSON.stringify(mail, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    renameSync(`${file}.tmp`, file);
  }

  /** Every kept message, newest first. The folder is read on each call: files removed by hand are gone. */
  all(): StoredMail[] {
    const mails = this.dir ? this.readFolder(this.dir) : [...this.memory.values()];
    return mails.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }

  async list(tenant: Tenant, query: MailboxQuery): Promise<MailboxPage> {
    if (query.cursor !== undefined && !MAIL_ID.test(query.cursor))
      throw new ValidationError([INVALID_CURSOR]);
    const to = query.to?.toLowerCase();
    const matching = this.all().filter(
      (m) =>
        m.tenant !== null &&
        sameTenant(m.tenant, tenant) &&
        (to === undefined || m.to === to) &&
        (query.cursor === undefined || m.id < query.cursor),
    );
    const page = matching.slice(0, query.limit);
    const items = page.map(({ text: _text, html: _html, ...summary }) => summary);
    return matching.length > query.limit ? { items, cursor: page[page.length - 1].id } : { items };
  }

  async get(tenant: Tenant, id: string): Promise<StoredMail | null> {
    if (!MAIL_ID.test(id)) return null;
    const mail = this.dir ? this.readFile(join(this.dir, `${id}.json`)) : (this.memory.get(id) ?? null);
    return mail?.tenant && sameTenant(mail.tenant, tenant) ? mail : null;
  }

  private readFolder(dir: string): StoredMail[] {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names
      .filter((name) => name.endsWith('.json') && MAIL_ID.test(name.slice(0, -'.json'.length)))
      .map((name) => this.readFile(join(dir, name)))
      .filter((m): m is StoredMail => m !== null);
  }

  private readFile(file: string): StoredMail | null {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as StoredMail;
    } catch {
      return null;
    }
  }
}
