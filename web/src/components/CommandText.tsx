import { Fragment } from "react";

/**
 * A sentence whose `backticked` parts are commands or paths, shown in code type: the strings mark
 * them as they would in docs, and a reader should see the command, not the backticks.
 */
export function CommandText({ text }: { text: string }) {
  const parts = text.split("`");
  // An odd number of backticks would leave one unpaired: show the text as it is then.
  if (parts.length % 2 === 0) return <>{text}</>;
  return (
    <>
      {parts.map((part, i) =>
        i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>,
      )}
    </>
  );
}
