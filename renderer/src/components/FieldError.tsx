import './Field.css';

/** A field's error, announced when it appears; nothing when there is none. */
export function FieldError({ message, id, testId }: { message: string | null | undefined; id?: string; testId?: string }) {
  if (!message) return null;
  return (
    <p className="field-error" id={id} data-testid={testId} role="alert">
      {message}
    </p>
  );
}
