import { ArnFormat, CfnParameter, Stack } from 'aws-cdk-lib';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

/**
 * The stack parameter that says who receives the alarms (`cdk deploy --parameters AlarmEmail=…`);
 * its default is the stage's `-c alarmEmail=…`.
 */
export const ALARM_EMAIL_PARAMETER = 'AlarmEmail';

/**
 * Where every alarm goes: an encrypted SNS topic with an e-mail subscription to the address given
 * at deploy time. The address is a parameter, not a literal, so the same template serves every
 * environment and nobody's address sits in the repository.
 */
export class AlarmTopic extends Construct {
  readonly topic: Topic;
  readonly key: Key;
  readonly email: CfnParameter;

  constructor(scope: Construct, id: string, props: { email?: string } = {}) {
    super(scope, id);
    const stack = Stack.of(this);
    this.email = new CfnParameter(stack, ALARM_EMAIL_PARAMETER, {
      type: 'String',
      description: 'E-mail address that receives the alarms (confirm the subscription e-mail once)',
      allowedPattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
      constraintDescription: 'must be an e-mail address',
      default: props.email,
    });
    // A customer managed key, not alias/aws/sns: CloudWatch alarms cannot publish to a topic
    // encrypted with the AWS managed key, whose policy cannot be changed to admit them.
    this.key = new Key(this, 'Key', {
      description: 'Encrypts the alarm topic',
      enableKeyRotation: true,
    });
    this.key.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        conditions: { StringEquals: { 'aws:SourceAccount': stack.account } },
      }),
    );
    this.topic = new Topic(this, 'Topic', {
      displayName: 'Payment service alarms',
      masterKey: this.key,
      enforceSSL: true,
    });
    // The topic policy enforceSSL writes replaces SNS's default one, so CloudWatch is let in by
    // name, and only for this account's alarms.
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': stack.account },
          ArnLike: {
            'aws:SourceArn': stack.formatArn({
              service: 'cloudwatch',
              resource: 'alarm',
              resourceName: '*',
              arnFormat: ArnFormat.COLON_RESOURCE_NAME,
            }),
          },
        },
      }),
    );
    this.topic.addSubscription(new EmailSubscription(this.email.valueAsString));
  }
}
