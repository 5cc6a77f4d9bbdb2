package dev.weft.net.codec;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.util.Map;
import java.util.SortedMap;

/**
 * An allowed map: its size, then each key and value with its class, so that every entry costs two bytes or
 * more and the reader holds the size to the bytes left (see {@link KryoCollectionSerializer}). The map is
 * rebuilt with its no-argument constructor.
 */
final class KryoMapSerializer extends Serializer<Map<Object, Object>> {
    @Override
    public void write(Kryo kryo, Output output, Map<Object, Object> map) {
        if (map instanceof SortedMap<?, ?> sorted && sorted.comparator() != null) {
            throw new IllegalArgumentException("a " + map.getClass().getName()
                    + " with a comparator: a comparator is not sent, and the map is rebuilt in natural order");
        }
        output.writeVarInt(map.size(), true);
        for (Map.Entry<Object, Object> entry : map.entrySet()) {
            kryo.writeClassAndObject(output, entry.getKey());
            kryo.writeClassAndObject(output, entry.getValue());
        }
    }

    @Override
    public Map<Object, Object> read(Kryo kryo, Input input, Class<? extends Map<Object, Object>> type) {
        int size = KryoBoundedInput.claim(input, input.readVarInt(true));
        Map<Object, Object> map = kryo.newInstance(type);
        for (int i = 0; i < size; i++) {
            map.put(kryo.readClassAndObject(input), kryo.readClassAndObject(input));
        }
        return map;
    }
}
