package com.acme.common

object Units {
  val KmPerMile: Double = 1.609344

  def milesToKm(miles: Double): Double = miles * KmPerMile
}
