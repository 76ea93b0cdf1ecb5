import { AttributeType, BillingMode, StreamViewType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE } from '#shared/adapters/dynamodb/table-definition';
import type { StageSettings } from '../stages';

/**
 * The single table, mapped from the same TABLE definition the local runtime's CreateTable uses,
 * so DynamoDB Local and the deployed table cannot drift apart.
 */
export class DataStore extends Construct {
  readonly table: Table;
  /** ARNs a GSI Query is authorised against (one per index; no `index/*` wildcard). */
  readonly indexArns: string[];

  constructor(scope: Construct, id: string, stage: StageSettings) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE.partitionKey, type: AttributeType.STRING },
      sortKey: { name: TABLE.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: TABLE.ttlAttribute,
      stream: StreamViewType[TABLE.streamView],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Payments, customers and API keys: in prod a stack deletion or replacement never drops them
      // (retained, deletion protection on); a dev stage's table goes with its stack.
      deletionProtection: stage.deletionProtection,
      removalPolicy: stage.removalPolicy,
    });
    for (const index of Object.values(TABLE.indexes)) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partitionKey, type: AttributeType.STRING },
        sortKey: { name: index.sortKey, type: AttributeType.STRING },
      });
    }
    this.indexArns = Object.values(TABLE.indexes).map((i) => `${this.table.tableArn}/index/${i.name}`);
  }
}
