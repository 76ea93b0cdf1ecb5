import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

/**
 * The bench's yardstick: a handler that loads only the DynamoDB client and does one GetItem.
 * Bundled with the functions' esbuild options; never deployed. The client is made on first
 * call, as the real functions make theirs (getDeps), so module load compares like with like.
 */
let doc: DynamoDBDocumentClient | undefined;

export const handler = async (event: { id?: string }) => {
  doc ??= DynamoDBDocumentClient.from(new DynamoDBClient({}));
  const out = await doc.send(
    new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: event.id ?? 'SYSTEM', sk: 'HEALTH' } }),
  );
  return { statusCode: 200, body: JSON.stringify(out.Item ?? null) };
};
