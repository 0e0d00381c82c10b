package com.acme.geo

import org.apache.spark.sql.functions.udf

object GeoMath {
  val EarthRadiusKm = 6371.0

  def toRadians(deg: Double): Double = deg * math.Pi / 180.0
}

object GeoUdfs extends Serializable {
  import GeoMath._

  val latValid = udf((lat: Double) => lat >= -90.0 && lat <= 90.0)
  val lonValid = udf((lon: Double) => lon >= -180.0 && lon <= 180.0)
  val radians = udf((deg: Double) => toRadians(deg))
  val kmToMiles = udf((km: Double) => km / 1.609344)
  val hemisphere = udf((lat: Double) => if (lat >= 0) "N" else "S")
}
