import { describe, expect, it } from 'vitest';
import {
  createOwnerApiKeyInput,
  OWNER_API_KEY_SCOPES,
  firstValidationMessage,
  SIGN_IN_FORM_FIELDS,
  SIGN_UP_FORM_FIELDS,
  signInBody,
  signInForm,
  signUpBody,
  signUpBodyFromForm,
  signUpForm,
  tokenQuery,
} from './auth';

const validForm = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  password: 'secret1',
  confirmPassword: 'secret1',
  invitationCode: 'PURSER-ABCDE-12345-FGHJK',
};

function signUpMessage(form: Record<string, unknown>): string | undefined {
  const result = signUpForm.safeParse(form);
  return result.success ? undefined : firstValidationMessage(result.error, SIGN_UP_FORM_FIELDS);
}

function signInMessage(form: Record<string, unknown>): string | undefined {
  const result = signInForm.safeParse(form);
  return result.success ? undefined : firstValidationMessage(result.error, SIGN_IN_FORM_FIELDS);
}

describe('the sign-up form', () => {
  it('accepts a complete form and trims the name, email and invitation code', () => {
    const result = signUpForm.parse({ ...validForm, fullName: '  Ada  ', email: ' ada@example.com ', invitationCode: ' code ' });
    expect(result).toMatchObject({ fullName: 'Ada', email: 'ada@example.com', invitationCode: 'code' });
  });

  it('refuses a full name shorter than 2 characters after trimming', () => {
    expect(signUpMessage({ ...validForm, fullName: ' A ' })).toBe('Name must be at least 2 characters');
  });

  it('refuses an invalid email address', () => {
    expect(signUpMessage({ ...validForm, email: 'ada@' })).toBe('Invalid email address');
  });

  it('refuses a password shorter than 6 characters', () => {
    expect(signUpMessage({ ...validForm, password: '12345', confirmPassword: '12345' })).toBe(
      'Password must be at least 6 characters',
    );
  });

  it('refuses a confirmation that differs from the password, on the confirm field', () => {
    const result = signUpForm.safeParse({ ...validForm, confirmPassword: 'secret2' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['confirmPassword'], message: "Passwords don't match" })]);
  });

  it('refuses a blank invitation code', () => {
    expect(signUpMessage({ ...validForm, invitationCode: '   ' })).toBe('Invitation code is required');
  });

  it('shows the message of the first failing field in form order', () => {
    expect(signUpMessage({})).toBe('Name must be at least 2 characters');
    expect(signUpMessage({ ...validForm, email: 'x', invitationCode: '' })).toBe('Invalid email address');
    expect(signUpMessage({ ...validForm, confirmPassword: 'other1', invitationCode: '' })).toBe("Passwords don't match");
  });

  it('becomes the REST body of spec section 7', () => {
    const body = signUpBodyFromForm(signUpForm.parse(validForm));
    expect(body).toEqual({
      email: 'ada@example.com',
      password: 'secret1',
      data: { full_name: 'Ada Lovelace', invitation_code: 'PURSER-ABCDE-12345-FGHJK' },
    });
    expect(signUpBody.parse(body)).toEqual(body);
  });
});

describe('the sign-up body', () => {
  const body = { email: 'ada@example.com', password: 'secret1', data: { full_name: 'Ada', invitation_code: 'code' } };

  it('applies the form rules to its fields', () => {
    expect(signUpBody.safeParse({ ...body, data: { ...body.data, full_name: 'A' } }).error?.issues[0]?.message).toBe(
      'Name must be at least 2 characters',
    );
    expect(signUpBody.safeParse({ ...body, data: { ...body.data, invitation_code: '' } }).error?.issues[0]?.message).toBe(
      'Invitation code is required',
    );
    expect(signUpBody.safeParse({ ...body, password: '123' }).error?.issues[0]?.message).toBe('Password must be at least 6 characters');
  });

  it('refuses a body without data', () => {
    expect(signUpBody.safeParse({ email: body.email, password: body.password }).success).toBe(false);
  });

  it('bounds the password length so hashing stays cheap', () => {
    expect(signUpBody.safeParse({ ...body, password: 'x'.repeat(257) }).success).toBe(false);
    expect(signUpBody.safeParse({ ...body, password: 'x'.repeat(256) }).success).toBe(true);
  });
});

describe('the sign-in form', () => {
  it('accepts an email and any non-empty password', () => {
    expect(signInForm.parse({ email: ' ada@example.com ', password: 'x' })).toEqual({ email: 'ada@example.com', password: 'x' });
  });

  it('refuses an invalid email address', () => {
    expect(signInMessage({ email: 'not-an-email', password: 'x' })).toBe('Invalid email address');
  });

  it('refuses an empty password', () => {
    expect(signInMessage({ email: 'ada@example.com', password: '' })).toBe('Password is required');
  });

  it('is the body of the password grant', () => {
    expect(signInBody).toBe(signInForm);
  });
});

describe('other auth inputs', () => {
  it('accept only the password and refresh_token grants', () => {
    expect(tokenQuery.safeParse({ grant_type: 'password' }).success).toBe(true);
    expect(tokenQuery.safeParse({ grant_type: 'refresh_token' }).success).toBe(true);
    expect(tokenQuery.safeParse({ grant_type: 'client_credentials' }).success).toBe(false);
  });

  it('give an API key an empty name by default and cap its length', () => {
    const grant = { scopes: ['read'], expires_in_days: 30 };
    expect(createOwnerApiKeyInput.parse(grant)).toEqual({ name: '', ...grant });
    expect(createOwnerApiKeyInput.safeParse({ ...grant, name: 'x'.repeat(101) }).success).toBe(false);
  });

  it('require at least one known scope, kept once each in a fixed order, and a lifetime of 1 to 365 days', () => {
    expect(createOwnerApiKeyInput.parse({ scopes: ['webhooks:admin', 'read', 'read'], expires_in_days: 365 }).scopes).toEqual(['read', 'webhooks:admin']);
    const message = (body: object) => createOwnerApiKeyInput.safeParse(body).error?.issues[0]?.message;
    expect(message({ scopes: ['admin'], expires_in_days: 30 })).toBe(`Unknown scope "admin": scopes are ${OWNER_API_KEY_SCOPES.join(', ')}`);
    expect(message({ scopes: [], expires_in_days: 30 })).toBe('Choose at least one scope');
    for (const days of [0, 366, 2.5, '30', undefined]) {
      expect(message({ scopes: ['read'], expires_in_days: days }), String(days)).toBe('expires_in_days must be a whole number of days from 1 to 365');
    }
  });
});
