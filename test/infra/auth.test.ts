import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { describe, it } from 'vitest';
import { DashboardAuth } from '#infra/constructs/auth';
import { STAGES } from '#infra/stages';

const stack = new Stack(new App(), 'AuthTemplate', { env: { region: 'sa-east-1', account: '111111111111' } });
new DashboardAuth(stack, 'Auth', STAGES.prod);
const template = Template.fromStack(stack);

describe('the dashboard user pool', () => {
  it('lets sellers sign up alone, verifies the e-mail by code, and keeps an immutable seller_id', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      Schema: Match.arrayWith([
        Match.objectLike({ Name: 'seller_id', AttributeDataType: 'String', Mutable: false }),
      ]),
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
      AutoVerifiedAttributes: ['email'],
      VerificationMessageTemplate: Match.objectLike({ DefaultEmailOption: 'CONFIRM_WITH_CODE' }),
      Policies: {
        PasswordPolicy: Match.objectLike({
          MinimumLength: 12,
          RequireLowercase: true,
          RequireUppercase: true,
          RequireNumbers: true,
          RequireSymbols: true,
        }),
      },
    });
  });

  it('offers TOTP (never SMS) and leaves requiring it to the API before live money', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    });
  });

  it('has a confidential client: password and refresh flows only, no user existence errors, revocable tokens', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: true,
      ExplicitAuthFlows: Match.arrayEquals(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
      PreventUserExistenceErrors: 'ENABLED',
      EnableTokenRevocation: true,
      RefreshTokenValidity: 43_200,
      ReadAttributes: Match.arrayWith(['custom:seller_id']),
      WriteAttributes: Match.arrayWith(['custom:seller_id']),
    });
  });

  it('puts the client secret nowhere in the template: the auth function reads it from the pool', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 0);
    template.resourceCountIs('Custom::DescribeCognitoUserPoolClient', 0);
  });
});
