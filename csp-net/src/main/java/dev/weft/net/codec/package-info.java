/**
 * The default {@link dev.weft.net.Codec} of a node, {@link dev.weft.net.codec.KryoCodec}: Kryo with registration
 * required, building only the types it allows. API: {@code KryoCodec} and {@code TypeNotAllowedException}; the rest
 * is package-private.
 */
package dev.weft.net.codec;
