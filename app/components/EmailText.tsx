/**
 * An e-mail address that may take two lines: it breaks after its @ rather than wherever the line
 * ends, so the name and the domain are not cut mid-word when each has room on a line of its own.
 */
export function EmailText({ email }: { email: string | null | undefined }) {
  if (!email) return null;
  const at = email.lastIndexOf("@");
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}
