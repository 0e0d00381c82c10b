package com.acme.udfs

import com.acme.common.Fares
import org.apache.spark.sql.functions.udf
import org.jspecify.annotations.NullMarked

@NullMarked
object Trips {
  val minimumFare = udf((fare: Double) => if (fare < 2.5) 2.5 else fare)

  val fareWithBase = udf((fare: Double) => Fares.withBase(fare))
}
