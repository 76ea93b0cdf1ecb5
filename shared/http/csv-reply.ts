import { CSV_CONTENT_TYPE, type CsvPart, NEXT_CURSOR_HEADER } from '#shared/csv';
import { saoPauloDate } from '#shared/dates';
import { rawReply } from './types';

/**
 * An export's answer: the CSV as text (API Gateway and the local gateway send a string body as it
 * is, no base64), named `<name>-<day>.csv` for the browser, with X-Next-Cursor when a part follows.
 */
export function csvReply(name: string, part: CsvPart, now: Date) {
  return rawReply(CSV_CONTENT_TYPE, part.body, 200, {
    'content-disposition': `attachment; filename="${name}-${saoPauloDate(now)}.csv"`,
    'cache-control': 'no-store',
    ...(part.nextCursor ? { [NEXT_CURSOR_HEADER]: part.nextCursor } : {}),
  });
}
