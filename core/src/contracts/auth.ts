/**
 * Contracts of owner sign-in: the sign-up and sign-in forms (spec section 5), the REST bodies
 * of /auth/v1 (spec section 7), the session the server answers with (spec section 3), and
 * owner API keys. Forms and bodies share their field rules, so the web app and the server
 * refuse the same input with the same first message.
 */
import { z } from 'zod';

// Spec section 5 (validation) and section 8 (auth toasts).
export const FULL_NAME_MESSAGE = 'Name must be at least 2 characters';
export const EMAIL_MESSAGE = 'Invalid email address';
export const PASSWORD_MESSAGE = 'Password must be at least 6 characters';
export const PASSWORD_REQUIRED_MESSAGE = 'Password is required';
export const PASSWORD_MISMATCH_MESSAGE = "Passwords don't match";
export const INVITATION_REQUIRED_MESSAGE = 'Invitation code is required';
export const INVALID_INVITATION_MESSAGE = 'Invalid or expired invitation code';
export const EMAIL_TAKEN_MESSAGE = 'This email is already registered. Please sign in instead.';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password. Please try again.';

// Spec section 9.
export const PASSWORD_MIN_LENGTH = 6;
export const FULL_NAME_MIN_LENGTH = 2;
// Upper bounds are ours: they keep hashing and storage bounded.
export const PASSWORD_MAX_LENGTH = 256;
export const FULL_NAME_MAX_LENGTH = 200;
/** RFC 5321 limit on a forward path. */
export const EMAIL_MAX_LENGTH = 254;
export const INVITATION_CODE_MAX_LENGTH = 100;

/** Access tokens live one hour; the web app refreshes shortly before. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;

const fullName = z
  .string({ error: FULL_NAME_MESSAGE })
  .trim()
  .min(FULL_NAME_MIN_LENGTH, { error: FULL_NAME_MESSAGE })
  .max(FULL_NAME_MAX_LENGTH, { error: `Name must be at most ${FULL_NAME_MAX_LENGTH} characters` });

const email = z
  .string({ error: EMAIL_MESSAGE })
  .trim()
  .max(EMAIL_MAX_LENGTH, { error: EMAIL_MESSAGE })
  .pipe(z.email({ error: EMAIL_MESSAGE }));

const newPassword = z
  .string({ error: PASSWORD_MESSAGE })
  .min(PASSWORD_MIN_LENGTH, { error: PASSWORD_MESSAGE })
  .max(PASSWORD_MAX_LENGTH, { error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters` });

const invitationCode = z
  .string({ error: INVITATION_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: INVITATION_REQUIRED_MESSAGE })
  .max(INVITATION_CODE_MAX_LENGTH, { error: INVALID_INVITATION_MESSAGE });

// No password can be longer than sign-up allows, so a longer one is simply wrong.
const existingPassword = z
  .string({ error: PASSWORD_REQUIRED_MESSAGE })
  .min(1, { error: PASSWORD_REQUIRED_MESSAGE })
  .max(PASSWORD_MAX_LENGTH, { error: INVALID_CREDENTIALS_MESSAGE });

// ---------------------------------------------------------------- forms (web app)

/** Field order is the order of spec section 5, which decides which message is shown first. */
export const SIGN_UP_FORM_FIELDS = ['fullName', 'email', 'password', 'confirmPassword', 'invitationCode'] as const;

/** The Sign Up tab. confirmPassword is checked here only; the API body does not carry it. */
export const signUpForm = z
  .object({
    fullName,
    email,
    password: newPassword,
    confirmPassword: z.string({ error: PASSWORD_MISMATCH_MESSAGE }),
    invitationCode,
  })
  .refine((form) => form.password === form.confirmPassword, {
    error: PASSWORD_MISMATCH_MESSAGE,
    path: ['confirmPassword'],
    // Also reported when another field is wrong, so the form can mark every bad field.
    when: (payload) =>
      !payload.issues.some((issue) => issue.path?.[0] === 'password' || issue.path?.[0] === 'confirmPassword'),
  });
export type SignUpForm = z.input<typeof signUpForm>;

export const SIGN_IN_FORM_FIELDS = ['email', 'password'] as const;

/** The Sign In tab. */
export const signInForm = z.object({ email, password: existingPassword });
export type SignInForm = z.input<typeof signInForm>;

/**
 * The message to show for a failed parse: the first failing field in form order (the
 * mismatch check runs after the field checks, so zod alone would report it last).
 */
export function firstValidationMessage(error: z.ZodError, fieldOrder: readonly string[] = []): string {
  const rank = (issue: z.core.$ZodIssue) => {
    const index = fieldOrder.indexOf(String(issue.path[0]));
    return index === -1 ? fieldOrder.length : index;
  };
  const [first] = [...error.issues].sort((a, b) => rank(a) - rank(b));
  return first?.message ?? 'Invalid request';
}

// ---------------------------------------------------------------- REST bodies (/auth/v1)

/** POST /auth/v1/signup (spec section 7): `{ email, password, data: { full_name, invitation_code } }`. */
export const signUpBody = z.object({
  email,
  password: newPassword,
  data: z.object(
    { full_name: fullName, invitation_code: invitationCode },
    { error: FULL_NAME_MESSAGE },
  ),
});
export type SignUpBody = z.input<typeof signUpBody>;
export type SignUpInput = z.output<typeof signUpBody>;

/** The API body a valid Sign Up form becomes. */
export function signUpBodyFromForm(form: z.output<typeof signUpForm>): SignUpBody {
  return {
    email: form.email,
    password: form.password,
    data: { full_name: form.fullName, invitation_code: form.invitationCode },
  };
}

/** POST /auth/v1/token?grant_type=password. */
export const signInBody = signInForm;
export type SignInBody = z.input<typeof signInBody>;
export type SignInInput = z.output<typeof signInBody>;

/**
 * POST /auth/v1/token?grant_type=refresh_token. The token may instead come from the
 * httpOnly refresh cookie, which is how the web app refreshes without holding it in JS.
 */
export const refreshTokenBody = z.object({
  refresh_token: z
    .string({ error: 'Refresh token must be a string' })
    .min(1, { error: 'Refresh token is required' })
    .max(512, { error: 'Invalid refresh token' })
    .optional(),
});
export type RefreshTokenBody = z.input<typeof refreshTokenBody>;

export const GRANT_TYPES = ['password', 'refresh_token'] as const;
export const tokenQuery = z.object({
  grant_type: z.enum(GRANT_TYPES, { error: 'grant_type must be password or refresh_token' }),
});

/** POST /auth/v1/logout?scope=global signs out every session of the owner; default: this one. */
export const logoutQuery = z.object({
  scope: z.enum(['local', 'global'], { error: 'scope must be local or global' }).default('local'),
});

// ---------------------------------------------------------------- responses

/** The signed-in owner (GET /auth/v1/user, tRPC auth.me, and the session's user). */
export const authUserView = z.object({
  id: z.string(),
  email: z.string(),
  user_metadata: z.object({ full_name: z.string() }),
  /** ISO 8601. */
  created_at: z.string(),
});
export type AuthUserView = z.infer<typeof authUserView>;

/** The auth session (spec section 3). expires_at is in seconds since the epoch. */
export const authSessionView = z.object({
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
  expires_at: z.number().int(),
  token_type: z.literal('bearer'),
  user: authUserView,
});
export type AuthSessionView = z.infer<typeof authSessionView>;

// ---------------------------------------------------------------- owner API keys

export const API_KEY_NAME_MAX_LENGTH = 100;
/** Active (unrevoked) keys one owner may hold at a time. */
export const MAX_ACTIVE_OWNER_API_KEYS = 25;

/**
 * What an owner API key may do. Every owner operation of the REST API requires exactly one of
 * these, declared beside the route (`scope` in define-route.ts); a signed-in session may do
 * everything. A scope grants nothing else: `payments:approve` does not include `read`.
 */
export const OWNER_API_KEY_SCOPES = ['read', 'payments:create', 'payments:approve', 'wallet:fund', 'agents:admin', 'policies:admin', 'webhooks:admin'] as const;
export type OwnerApiKeyScope = (typeof OWNER_API_KEY_SCOPES)[number];

export const ownerApiKeyScope = z.enum(OWNER_API_KEY_SCOPES, {
  error: (issue) => `Unknown scope ${JSON.stringify(issue.input)}: scopes are ${OWNER_API_KEY_SCOPES.join(', ')}`,
});

/** One line per scope: the console's key dialog shows them, the docs repeat them. */
export const OWNER_API_KEY_SCOPE_DESCRIPTIONS: Record<OwnerApiKeyScope, string> = {
  read: 'Read everything: wallet, agents, payments, policies, webhooks, audit log (every GET)',
  'payments:create': 'Create payment intents and attach policies to them',
  'payments:approve': 'Approve, reject and cancel payment intents',
  'wallet:fund': "Top up the wallet (sandbox) and move funds to agents",
  'agents:admin': 'Create, change, suspend, reactivate and delete agents; the kill switch; rotate agent keys',
  'policies:admin': 'Create, change and delete policies',
  'webhooks:admin': 'Register, change and delete webhook endpoints; rotate their secrets; redeliver',
};

/** Every key expires; the console offers these lifetimes, the API takes any up to the maximum. */
export const OWNER_API_KEY_LIFETIME_CHOICES_DAYS = [30, 90, 365] as const;
export const MAX_OWNER_API_KEY_LIFETIME_DAYS = 365;

const DAYS_MESSAGE = `expires_in_days must be a whole number of days from 1 to ${MAX_OWNER_API_KEY_LIFETIME_DAYS}`;

export const createOwnerApiKeyInput = z.object({
  name: z
    .string({ error: 'Name must be text' })
    .trim()
    .max(API_KEY_NAME_MAX_LENGTH, { error: `Name must be at most ${API_KEY_NAME_MAX_LENGTH} characters` })
    .default(''),
  /** At least one; kept once each, in the order of OWNER_API_KEY_SCOPES. */
  scopes: z
    .array(ownerApiKeyScope, { error: `scopes must be a list of scopes: ${OWNER_API_KEY_SCOPES.join(', ')}` })
    .min(1, { error: 'Choose at least one scope' })
    .transform((scopes) => OWNER_API_KEY_SCOPES.filter((scope) => scopes.includes(scope))),
  /** Days from now until the key stops working: no key lives forever. */
  expires_in_days: z
    .number({ error: DAYS_MESSAGE })
    .int({ error: DAYS_MESSAGE })
    .min(1, { error: DAYS_MESSAGE })
    .max(MAX_OWNER_API_KEY_LIFETIME_DAYS, { error: DAYS_MESSAGE }),
});
export type CreateOwnerApiKeyBody = z.input<typeof createOwnerApiKeyInput>;
export type CreateOwnerApiKeyInput = z.output<typeof createOwnerApiKeyInput>;

export const revokeOwnerApiKeyInput = z.object({
  id: z.uuid({ error: 'API key not found' }),
});
export type RevokeOwnerApiKeyInput = z.infer<typeof revokeOwnerApiKeyInput>;

/** An owner API key as lists show it: the visible prefix, never the secret or its hash. */
export const ownerApiKeyView = z.object({
  id: z.string(),
  name: z.string(),
  /** The start of the key (`psk_<12 hex>`), enough to recognise it. */
  prefix: z.string(),
  /** What the key may do (OWNER_API_KEY_SCOPES). */
  scopes: z.array(ownerApiKeyScope),
  created_at: z.string(),
  /** When it stops working; a key past it is refused with 401 API_KEY_EXPIRED. */
  expires_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type OwnerApiKeyView = z.infer<typeof ownerApiKeyView>;

/** The answer to creating a key: the only time the whole key is shown. */
export const createdOwnerApiKeyView = ownerApiKeyView.extend({ key: z.string() });
export type CreatedOwnerApiKeyView = z.infer<typeof createdOwnerApiKeyView>;

export const ownerApiKeyListView = z.object({ api_keys: z.array(ownerApiKeyView) });
export type OwnerApiKeyListView = z.infer<typeof ownerApiKeyListView>;
