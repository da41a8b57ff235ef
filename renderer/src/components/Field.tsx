import type { ReactNode } from 'react';
import { classNames } from './classNames.js';
import { FieldError } from './FieldError.js';
import './Field.css';

interface FieldProps {
  label: ReactNode;
  /** The id of the one control the label names (a `<label for>`). Leave it out for a group of controls. */
  controlId?: string;
  /** A group's label id, for the group's `aria-labelledby`. */
  labelId?: string;
  help?: ReactNode;
  helpId?: string;
  error?: string | null;
  errorId?: string;
  errorTestId?: string;
  className?: string;
  /** The control(s). */
  children?: ReactNode;
}

/** One row of a form: the label on the left; the control, its help and its error on the right. */
export function Field({ label, controlId, labelId, help, helpId, error, errorId, errorTestId, className, children }: FieldProps) {
  return (
    <div className={classNames('field', className)}>
      {controlId ? (
        <label htmlFor={controlId} className="field-label" id={labelId}>
          {label}
        </label>
      ) : (
        <span className="field-label" id={labelId}>
          {label}
        </span>
      )}
      <div className="field-body">
        {children}
        {help && (
          <p className="field-help" id={helpId}>
            {help}
          </p>
        )}
        <FieldError message={error} id={errorId} testId={errorTestId} />
      </div>
    </div>
  );
}

/** A control's `aria-describedby`: the ids given, or nothing. */
export function describedBy(...ids: Array<string | false | null | undefined>): string | undefined {
  return classNames(...ids);
}
