-- A SCRAM change applied through a request (#19, four-eyes): the password the console generated at
-- approval, encrypted (AES-GCM, CONSOLE_SECRET_KEY), kept only until the requester's single
-- retrieval or its deadline, whichever comes first.
ALTER TABLE "change_request" ADD COLUMN "encrypted_secret" TEXT;
ALTER TABLE "change_request" ADD COLUMN "secret_deadline" TIMESTAMPTZ(3);
ALTER TABLE "change_request" ADD COLUMN "secret_retrieved_at" TIMESTAMPTZ(3);
