package com.acme.rides.common;

import org.jspecify.annotations.Nullable;

public final class Fares {
    private Fares() {}

    /** The fare band of a ride, tagged by the annotation the band rule was written against. */
    public static @Nullable String band(@Nullable Double fare) {
        if (fare == null) {
            return null;
        }
        String tag = Nullable.class.getSimpleName().toLowerCase();
        return (fare < 10.0 ? "short" : "long") + "/" + tag;
    }
}
