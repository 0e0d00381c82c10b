package com.acme.udfs

import com.acme.common.Units
import org.apache.spark.sql.functions.udf

object Distances {
  val toKm = udf((miles: Double) => Units.milesToKm(miles))
}
