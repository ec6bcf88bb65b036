// The Sign Up tab: invitation code, full name, email, password and its confirmation
// (spec sections 2, 5 and 8). Access is invite-only; the server checks the code.
import { Button, Stack, TextField } from '@mui/material';
import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { SIGN_UP_FORM_FIELDS, signUpBodyFromForm, signUpForm, type SignUpForm } from '@purser/core';
import type { Session } from '../../../shared/session/session-store';
import { signUp } from '../api/sign-up';
import { signUpErrorMessage } from '../utils/auth-error-message';
import { firstInvalidField, type FieldError } from '../utils/first-invalid-field';

type Field = (typeof SIGN_UP_FORM_FIELDS)[number];

const EMPTY: SignUpForm = { invitationCode: '', fullName: '', email: '', password: '', confirmPassword: '' };

interface FieldSpec {
  field: Field;
  label: string;
  type: 'text' | 'email' | 'password';
  autoComplete: string;
  placeholder: string;
}

// On screen the code comes first, as the spec lists the fields; the first message shown still
// follows the validation order of spec section 5 (SIGN_UP_FORM_FIELDS).
const FIELDS: FieldSpec[] = [
  { field: 'invitationCode', label: 'Invitation Code', type: 'text', autoComplete: 'off', placeholder: 'Enter your invitation code' },
  { field: 'fullName', label: 'Full Name', type: 'text', autoComplete: 'name', placeholder: 'Jane Doe' },
  { field: 'email', label: 'Email', type: 'email', autoComplete: 'email', placeholder: 'you@example.com' },
  { field: 'password', label: 'Password', type: 'password', autoComplete: 'new-password', placeholder: 'At least 6 characters' },
  { field: 'confirmPassword', label: 'Confirm Password', type: 'password', autoComplete: 'new-password', placeholder: 'Repeat your password' },
];

export function SignUpFormPanel({ onSignedUp }: { onSignedUp: (session: Session) => void }) {
  const [values, setValues] = useState<SignUpForm>(EMPTY);
  const [invalid, setInvalid] = useState<FieldError<Field> | null>(null);
  const [busy, setBusy] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const parsed = signUpForm.safeParse(values);
    if (!parsed.success) {
      const first = firstInvalidField(parsed.error, SIGN_UP_FORM_FIELDS);
      setInvalid(first);
      toast.error(first.message);
      inputs.current[first.field]?.focus();
      return;
    }
    setInvalid(null);
    setBusy(true);
    try {
      const session = await signUp(signUpBodyFromForm(parsed.data));
      toast.success('Account created successfully!');
      onSignedUp(session);
    } catch (error) {
      toast.error(signUpErrorMessage(error));
      setBusy(false);
    }
  };

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={submit} aria-label="Sign up">
      {FIELDS.map(({ field, label, type, autoComplete, placeholder }) => (
        <TextField
          key={field}
          label={label}
          type={type}
          name={field}
          autoComplete={autoComplete}
          placeholder={placeholder}
          value={values[field]}
          onChange={(event) => {
            setValues((previous) => ({ ...previous, [field]: event.target.value }));
            if (invalid?.field === field) setInvalid(null);
          }}
          inputRef={(element: HTMLInputElement | null) => {
            inputs.current[field] = element;
          }}
          required
          fullWidth
          {...(invalid?.field === field ? { error: true, helperText: invalid.message } : {})}
        />
      ))}
      <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
        {busy ? 'Creating account...' : 'Create Account'}
      </Button>
    </Stack>
  );
}
