// The Sign In tab: email and password (spec sections 2, 5 and 8).
import { Button, Stack, TextField } from '@mui/material';
import { useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { SIGN_IN_FORM_FIELDS, signInForm, type SignInForm } from '@purser/core';
import type { Session } from '../../../shared/session/session-store';
import { signIn } from '../api/sign-in';
import { signInErrorMessage } from '../utils/auth-error-message';
import { firstInvalidField, type FieldError } from '../utils/first-invalid-field';

type Field = (typeof SIGN_IN_FORM_FIELDS)[number];

export function SignInFormPanel({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [values, setValues] = useState<SignInForm>({ email: '', password: '' });
  const [invalid, setInvalid] = useState<FieldError<Field> | null>(null);
  const [busy, setBusy] = useState(false);
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});

  const change = (field: Field) => (event: { target: { value: string } }) => {
    setValues((previous) => ({ ...previous, [field]: event.target.value }));
    if (invalid?.field === field) setInvalid(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const parsed = signInForm.safeParse(values);
    if (!parsed.success) {
      const first = firstInvalidField(parsed.error, SIGN_IN_FORM_FIELDS);
      setInvalid(first);
      toast.error(first.message);
      inputs.current[first.field]?.focus();
      return;
    }
    setInvalid(null);
    setBusy(true);
    try {
      const session = await signIn(parsed.data);
      toast.success('Welcome back!');
      onSignedIn(session);
    } catch (error) {
      toast.error(signInErrorMessage(error));
      setBusy(false);
    }
  };

  const errorProps = (field: Field) =>
    invalid?.field === field ? { error: true, helperText: invalid.message } : {};

  return (
    <Stack component="form" noValidate spacing={2} onSubmit={submit} aria-label="Sign in">
      <TextField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        placeholder="you@example.com"
        value={values.email}
        onChange={change('email')}
        inputRef={(element: HTMLInputElement | null) => {
          inputs.current.email = element;
        }}
        required
        fullWidth
        {...errorProps('email')}
      />
      <TextField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        placeholder="Enter your password"
        value={values.password}
        onChange={change('password')}
        inputRef={(element: HTMLInputElement | null) => {
          inputs.current.password = element;
        }}
        required
        fullWidth
        {...errorProps('password')}
      />
      <Button type="submit" variant="contained" size="large" disabled={busy} fullWidth>
        {busy ? 'Signing in...' : 'Sign In'}
      </Button>
    </Stack>
  );
}
