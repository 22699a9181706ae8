-- What a certificate printed, once its holder's family had their data erased (issue 24): the
-- certificate row goes (it prints the child's name), its code stays verifiable without the name,
-- so that /xac-minh/{code} says the data was erased at the family's request rather than "not found".
CREATE TABLE erased_certificates (
  code text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('participation', 'prize', 'top30', 'school')),
  title text NOT NULL,
  contest text NOT NULL,
  -- dd/mm/yyyy as printed
  date text NOT NULL,
  revoked_at timestamptz,
  erased_at timestamptz NOT NULL
);
