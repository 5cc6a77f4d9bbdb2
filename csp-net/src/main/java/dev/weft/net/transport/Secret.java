package dev.weft.net.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The network's shared secret, which each side of a connection proves it knows without sending it: its proof
 * is an HMAC-SHA256, keyed with the secret, over its own hello and then the peer's. Both hellos carry a fresh
 * nonce, so a proof cannot be replayed on another connection; the order makes each side's proof different,
 * so a peer cannot reflect ours back.
 */
final class Secret {
    /** Bytes in a proof. */
    static final int PROOF_BYTES = 32;
    private static final String ALGORITHM = "HmacSHA256";
    private final SecretKeySpec key;

    Secret(String secret) {
        this.key = new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), ALGORITHM);
    }

    /** The proof that {@code prover}'s sender knows the secret, for the connection on which it met {@code verifier}. */
    byte[] proof(Hello prover, Hello verifier) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(key);
            // Length-prefixed, so that no two pairs of hellos give the same input.
            mac.update(ByteBuffer.allocate(4).putInt(prover.payload().length).array());
            mac.update(prover.payload());
            mac.update(ByteBuffer.allocate(4).putInt(verifier.payload().length).array());
            mac.update(verifier.payload());
            return mac.doFinal();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no " + ALGORITHM, e);
        }
    }

    /** Whether {@code proof} shows that {@code prover}'s sender knows the secret (in constant time). */
    boolean verify(byte[] proof, Hello prover, Hello verifier) {
        return MessageDigest.isEqual(proof, proof(prover, verifier));
    }
}
