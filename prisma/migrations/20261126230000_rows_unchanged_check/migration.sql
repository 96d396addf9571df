-- The order-submission batches (server/play/submissions.ts) judge a batch on the rows they hold in memory and send
-- its statements behind a check that those rows are unchanged. The check raises this error, which rolls the
-- transaction back, when one has changed: the batch then runs again on the rows as they are.
CREATE FUNCTION "rows_unchanged"(unchanged boolean, changed bigint) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT unchanged THEN
    RAISE EXCEPTION 'rows changed since they were read: % of the games and phases of this batch', changed USING ERRCODE = 'P0001', HINT = 'rows_unchanged';
  END IF;
  RETURN true;
END
$$;
