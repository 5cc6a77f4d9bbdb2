package dev.weft.net.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.Collection;
import java.util.PriorityQueue;
import java.util.SortedSet;

/**
 * An allowed collection: its size, then each element with its class. Unlike Kryo's own collection
 * serializer, which may send a run of elements in no bytes at all (nulls, or empty records of one class),
 * every element here costs a byte or more, so the reader holds the size to the bytes left and never builds
 * more than the message pays for. The collection is rebuilt with its no-argument constructor.
 */
final class KryoCollectionSerializer extends Serializer<Collection<Object>> {
    @Override
    public void write(Kryo kryo, Output output, Collection<Object> collection) {
        if (collection instanceof SortedSet<?> sorted && sorted.comparator() != null
                || collection instanceof PriorityQueue<?> queue && queue.comparator() != null) {
            throw new IllegalArgumentException("a " + collection.getClass().getName()
                    + " with a comparator: a comparator is not sent, and the set is rebuilt in natural order");
        }
        output.writeVarInt(collection.size(), true);
        for (Object element : collection) {
            kryo.writeClassAndObject(output, element);
        }
    }

    @Override
    public Collection<Object> read(Kryo kryo, Input input, Class<? extends Collection<Object>> type) {
        int size = KryoBoundedInput.claim(input, input.readVarInt(true));
        Collection<Object> collection = kryo.newInstance(type);
        for (int i = 0; i < size; i++) {
            collection.add(kryo.readClassAndObject(input));
        }
        return collection;
    }
}
