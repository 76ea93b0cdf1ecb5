import { GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from './dynamodb-local';

/**
 * The shape of the items the code reads today. Nothing is deployed, so a change of stored shape
 * ships no migration and no fallback for older items: the local data folder that holds them is
 * refused at start instead, never misread. Raise it with every change of a stored shape.
 *
 * 2: issue 33. Products without their copy, id pointers without the profile's copy, global
 *    customers without `sellerIds` and the old pay-token pointer are no longer read.
 */
export const DATA_FORMAT_VERSION = 2;

/** The one item that says which format the table's data was written in (local runtime only). */
const FORMAT_KEY = { pk: { S: 'LOCAL#DATA_FORMAT' }, sk: { S: 'LOCAL#DATA_FORMAT' } };

export class LocalDataFormatError extends Error {
  constructor(found: number | null, dataDir: string) {
    const what = found === null ? 'data written before its format was recorded' : `data of format ${found}`;
    super(
      `The local data folder ${dataDir} holds ${what}; this code reads format ${DATA_FORMAT_VERSION} only ` +
        '(nothing is deployed, so older local data is not migrated). Stop the service, delete ' +
        `${dataDir} (or start with LOCAL_DATA_DIR naming another folder), and run npm start again.`,
    );
    this.name = 'LocalDataFormatError';
  }
}

/**
 * Holds a kept table to the code's data format: a table created by this start is stamped with it;
 * a table kept from an earlier start whose stamp is older or newer than the code, or missing,
 * throws LocalDataFormatError naming `dataDir`.
 */
export async function checkDataFormat(
  endpoint: string,
  tableName: string,
  dataDir: string,
  created: boolean,
): Promise<void> {
  const client = localClient(endpoint);
  try {
    const stamp = await client.send(
      new GetItemCommand({ TableName: tableName, Key: FORMAT_KEY, ConsistentRead: true }),
    );
    const found = stamp.Item?.format?.N === undefined ? null : Number(stamp.Item.format.N);
    if (found === DATA_FORMAT_VERSION) return;
    if (!created) throw new LocalDataFormatError(found, dataDir);
    await client.send(
      new PutItemCommand({
        TableName: tableName,
        Item: {
          ...FORMAT_KEY,
          entity: { S: 'data-format' },
          version: { N: '1' },
          format: { N: String(DATA_FORMAT_VERSION) },
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  } finally {
    client.destroy();
  }
}
