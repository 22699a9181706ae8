import type { ButtonHTMLAttributes } from 'react';

type Variant = 'primary' | 'accent' | 'outline' | 'danger';

export function Button({
  variant = 'primary',
  block,
  className,
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; block?: boolean }) {
  const classes = ['btn', variant !== 'primary' && `btn-${variant}`, block && 'btn-block', className].filter(Boolean).join(' ');
  return <button type={type} className={classes} {...props} />;
}
