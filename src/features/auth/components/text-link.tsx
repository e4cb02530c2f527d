import type { ReactNode } from 'react';
import { Link } from 'react-router';

export function TextLink({
  to,
  onClick,
  children,
}: {
  to: string;
  onClick?: () => void;
  children: ReactNode;
}) {
  return (
    <Link to={to} onClick={onClick} className="font-semibold text-azure-700 hover:underline">
      {children}
    </Link>
  );
}
