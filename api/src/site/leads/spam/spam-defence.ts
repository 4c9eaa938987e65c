import type { FormName, SpamReasonCode } from '@agency/shared';
import type { Db } from '../../../platform/db/connection';
import { siteSecret } from '../../../platform/db/site-secrets';
import { contentReasons } from './content-rules';
import { FormTokens, type TokenReading } from './form-token';
import { checkProof, createProofChallenge, type ProofReading, type ProofSecrets } from './proof-of-work';
import { senderKeys, trustedSenderKeys, type SenderKeys } from './sender-keys';
import { certainBot, spamReasons, type SubmissionChannel } from './spam-judge';
import { rateReasons } from './spam-rates';
import { SpamSettingsCache, type StoredSpamSettings } from './spam-settings';

declare module 'fastify' {
  interface FastifyInstance {
    /** The spam defence: the leads' routes judge with it, the pages ask it for form tokens, the console tunes it. */
    spamDefence: SpamDefence;
  }
}

/** The names of the defence's secrets in site_secrets. */
export const SPAM_SECRET_NAMES = { token: 'spam-form-token', proofSignature: 'spam-proof-signature', proofKey: 'spam-proof-key', sender: 'spam-sender' } as const;

/** The defence's secrets, the site's (site_secrets), so every process signs and checks alike. */
export async function readSpamSecrets(db: Db): Promise<{ token: string; proof: ProofSecrets; sender: string }> {
  const { token: tokenName, proofSignature, proofKey, sender: senderName } = SPAM_SECRET_NAMES;
  const [token, signature, key, sender] = await Promise.all([tokenName, proofSignature, proofKey, senderName].map((name) => siteSecret(db, name)));
  return { token: token as string, proof: { signature: signature as string, key: key as string }, sender: sender as string };
}

/** A submission as the defence sees it. */
export interface SubmissionUnderJudgement {
  form: FormName;
  channel: SubmissionChannel;
  honeypotFilled: boolean;
  token: string | undefined;
  proof: string | undefined;
  /** What the person typed that offers are written into (message or résumé, name, company or city). */
  text: string;
  /** The message or résumé alone. */
  message: string;
  email: string;
  phone: string;
  /** The sender's address as the trusted proxy reports it. */
  ip: string;
}

export type Judgement =
  | { action: 'drop'; reason: 'honeypot' | 'direct-without-token' }
  | {
      action: 'store';
      /** Every reason found before the submission's transaction (which adds a reused token or proof). */
      reasons: SpamReasonCode[];
      keys: SenderKeys;
      /** The token's and the proof's nonces, each to be used once (spam_nonce_uses). */
      nonces: { token?: string; proof?: string };
      settings: StoredSpamSettings;
      trusted: boolean;
    };

/**
 * The layered spam defence, every layer on this server: the signed form token, the proof of
 * work, the text, the sender's recent leads, and the senders staff vouched for. One per app; its
 * secrets are the site's (shared by every process).
 */
export class SpamDefence {
  private constructor(
    private readonly db: Db,
    readonly tokens: FormTokens,
    private readonly proofSecrets: ProofSecrets,
    private readonly senderSecret: string,
    readonly settings: SpamSettingsCache,
  ) {}

  static async open(db: Db): Promise<SpamDefence> {
    const secrets = await readSpamSecrets(db);
    return new SpamDefence(db, new FormTokens(secrets.token), secrets.proof, secrets.sender, new SpamSettingsCache(db));
  }

  /** A fresh token and a challenge for a form's script (GET /api/forms/:form/challenge). */
  async challenge(form: FormName, now = Date.now()) {
    return { token: this.tokens.issue(form, now), challenge: await createProofChallenge(this.proofSecrets, form, now) };
  }

  async judge(submission: SubmissionUnderJudgement, now = Date.now()): Promise<Judgement> {
    const dropped = certainBot(submission.channel, submission.honeypotFilled, submission.token !== undefined && submission.token !== '');
    if (dropped) return { action: 'drop', reason: dropped };
    const token: TokenReading | undefined = submission.token ? this.tokens.read(submission.token, submission.form) : undefined;
    const proof: ProofReading | undefined = submission.proof ? await checkProof(this.proofSecrets, submission.proof, submission.form) : undefined;
    const keys = senderKeys(this.senderSecret, { ...submission, text: submission.message });
    const [settings, rates, trusted] = await Promise.all([
      this.settings.get(now),
      rateReasons(this.db, keys, now),
      this.db.kysely.selectFrom('spam_trusted_senders').select('sender_key').where('sender_key', 'in', trustedSenderKeys(this.senderSecret, submission)).executeTakeFirst(),
    ]);
    const content = contentReasons(submission, settings.phrases);
    const reasons = spamReasons({ channel: submission.channel, token, proof, content: content.reasons, rates, now });
    return {
      action: 'store',
      reasons,
      keys,
      nonces: { token: token?.ok ? token.nonce : undefined, proof: proof?.ok ? proof.nonce : undefined },
      settings,
      trusted: trusted !== undefined,
    };
  }
}
